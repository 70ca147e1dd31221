"""Every command the harness tells a user to run passes the agent's tool guard: the hints of its
refusals and problems, its `Next:` lines, and the commands its skills teach. Collected from the
source (not copied here), with realistic values put where the code formats ids and paths in, so
a new hint that the guard would refuse fails this test instead of teaching an agent that the
harness's own advice is a bypass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

from support.skill_commands import FENCE, skill_dirs

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "harness"
HERE = Where("/repo", "/repo")
TASK = "TASK-20260101-abcdef"
LEDGER = f".harness/tasks/{TASK}/events.jsonl"
COMMAND = re.compile(r"`((?:harness|git|pre-commit|SKIP=\S+ git|python -m harness) [^`]*)`")
# What the harness tells a *human* to run, never the agent: the guard denies these on purpose.
# A graft file is a human's to convert: the guard refuses writing replace refs and .git/info/grafts alike.
HUMANS_ONLY = re.compile(r"^(harness (approve|uninstall|agent uninstall)\b|git replace --convert-graft-file$)")
# Values the code formats into its hints, by what the formatted expression is called.
VALUES = [
    (re.compile(r"\bsub\b"), "commit"),
    (re.compile(r"ledger|events"), LEDGER), (re.compile(r"approvals|APPROVALS"), ".harness/approvals.jsonl"),
    (re.compile(r"folder"), f".harness/tasks/{TASK}"), (re.compile(r"\bname\b"), "F-001.yaml"),
    (re.compile(r"fid|finding"), "F-001"), (re.compile(r"tid|task"), TASK),
    (re.compile(r"_rev|rev|sha|gated|head|old|commit|oid"), "0123456789ab"),
    (re.compile(r"etype|type|\bt\b|kind|first|stale"), "unit_test"), (re.compile(r"ref"), "refs/notes/harness"),
    (re.compile(r"format"), "sha1"), (re.compile(r"kind_of|change"), "gate-change"),
    (re.compile(r"host|agent"), "claude"), (re.compile(r"scope"), "project"),
]
# The capitalised placeholders of hint prose.
PLACEHOLDERS = {"FILE": LEDGER, "TYPE": "unit_test", "ID": TASK, "PATH": "src/app.py", "SHA": "0123456789ab",
                "REV": "0123456789ab", "HOST": "claude", "NAME": "main", "REMOTE": "origin", "COMMAND": "python -m pytest -q", "CATEGORY": "correctness", "…": "", "...": ""}


def _value(expression: str) -> str:
    return next((v for pattern, v in VALUES if pattern.search(expression)), "src/app.py")


def _text(node: ast.AST) -> str | None:
    """A string literal, with each formatted value of an f-string replaced by a realistic one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else _value(ast.unparse(v)) for v in node.values)
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            found.add(id(body[0].value))
    return found


def _strings_of(path: Path) -> list[str]:
    """The hint and `Next:` strings of a module: string literals that are not docstrings (those
    describe, and some quote the bypasses the guard denies), `"a" + "b"` read whole."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        text = _joined(node) if id(node) not in skip else None
        if text:
            out.append(text)
    return out


def _joined(node: ast.AST) -> str | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _joined(node.left), _joined(node.right)
        return left + right if left is not None and right is not None else None
    return _text(node)


def _instead(path: Path) -> list[str]:
    """What the guard's own refusals say to run instead: `Denial(rule, reason, INSTEAD)`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Denial"]
    return [t for c in calls if len(c.args) == 3 for t in [_joined(c.args[2])] if t]


def _next_steps(path: Path) -> list[str]:
    """The commands of `NextStep(COMMAND, why)`: printed whole as `Next:` lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr",
                                                                                getattr(n.func, "id", "")) == "NextStep"]
    return [t for c in calls if c.args for t in [_text(c.args[0])] if t]


def _fill(command: str) -> str:
    command = command.replace("\\n", " ").split("\n")[0]
    for placeholder, value in PLACEHOLDERS.items():
        command = re.sub(rf"(?<![\w-]){re.escape(placeholder)}(?![\w-])", value, command)
    return re.sub(r"\b(\w+)\|[\w|-]+", r"\1", command).strip()  # `validate|stamp`: the first choice


def source_commands() -> list[tuple[str, str]]:
    out = []
    for path in sorted(HARNESS.rglob("*.py")):
        rel = path.relative_to(HARNESS).as_posix()
        # The guard's own modules quote the bypasses they deny in reasons: only what they say to run counts.
        guard = "Denial(" in path.read_text(encoding="utf-8")
        for text in _instead(path) if guard else _strings_of(path):
            out += [(rel, _fill(c)) for c in COMMAND.findall(text)]
        out += [(rel, _fill(c)) for c in _next_steps(path)]
    return sorted(set(out))


def skill_commands() -> list[tuple[str, str]]:
    out = []
    for folder in skill_dirs(REPO / "skills"):
        markdown = (folder / "SKILL.md").read_text(encoding="utf-8")
        for lang, body in FENCE.findall(markdown):
            if lang in ("", "bash", "sh", "shell"):
                out += [(folder.name, _fill(line.strip())) for line in body.splitlines()
                        if COMMAND.match("`" + line.strip() + "`")]
        out += [(folder.name, _fill(c)) for c in COMMAND.findall(FENCE.sub("", markdown))]
    return sorted(set(out))


ALL = source_commands() + skill_commands()


@pytest.mark.parametrize("origin,command", ALL)
def test_a_command_the_harness_recommends_passes_the_guard(origin: str, command: str) -> None:
    denial = check_shell(command, HERE)
    if HUMANS_ONLY.match(command):
        assert denial is not None and denial.rule in ("approve", "uninstall", "plumbing"), command
    else:
        assert denial is None, (origin, command, denial)


def test_the_walk_finds_the_hints_it_is_about() -> None:
    commands = {c for _, c in ALL}
    assert len(commands) > 100
    # The append-only hint, the gate's restore step, a `Next:` line, a skill's command.
    assert f"git checkout -- {LEDGER}" in commands
    assert any(c.startswith("git restore --source=0123456789ab") for c in commands)
    assert f"git checkout 0123456789ab -- {LEDGER}" in commands
    assert "harness transition VERIFYING" in commands
    assert any(origin == "agent/judge/denials.py" for origin, _ in ALL)  # what a refusal says to run instead
    assert any(origin == "engineering-harness" for origin, _ in skill_commands())
