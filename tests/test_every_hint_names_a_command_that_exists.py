"""Every `harness …` command a hint, a fix or a next step names exists, with its options."""

from __future__ import annotations

import ast
import itertools
import re
import shlex
from pathlib import Path

import click

from support.skill_commands import parse

ROOT = Path(__file__).resolve().parent.parent


HINT_CALLS = {"NextStep": 0, "Refused": 1, "HarnessError": 1, "LedgerProblem": 1, "Problem": 3, "Disagreement": 4}

HINT_NAMES = re.compile(r"^(FIX_COMMANDS|FIXED_AT_ADD|NEXT_STEP|_FINDING_STEP|[A-Z_]*HINT|REPLAY_WRITE|COMMIT_DONE|NO_TASK|fix|hint"
                        r"|why)$")

HOLE = re.compile(r"⟨[^⟩]*⟩")  # where an f-string puts a value

TICKED = re.compile(r"`(harness [^`]*)`")

# Placeholders hints write for the user to fill in, and a value of the kind each stands for.
META = {"TYPE": "unit_test", "REQ-ID": "REQ-001", "INV-ID": "INV-001", "F-ID": "F-0001", "ID": "TASK-20250101-abcdef",
        "TARGET": "VERIFYING", "S": "verified", "N": "3", "PATH": "x.py", "CATEGORY": "correctness",
        "COMMAND": "true", "CASE_ID": "t.py::t", "FILE": "f.yaml", "{id}": "F-0001", "WHY": "x"}

VALUES = ["F-0001", "unit_test", "REQ-001", "TASK-20250101-abcdef", "VERIFYING", "x"]  # what an f-string hole may hold

ENDS = {"or", "then", "/", "and", "—", "-", "to", "first", "after", "before", "with", "when", "if", "for", "is", "on"}


def _text(node: ast.AST) -> str | None:
    """A string expression as the user reads it, each f-string value as a ⟨hole⟩; None if not a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else f"⟨{ast.unparse(v.value)}⟩"  # type: ignore[attr-defined]
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _texts(node: ast.AST):
    text = _text(node)
    if text is not None:
        yield text
        return
    for child in ast.iter_child_nodes(node):
        yield from _texts(child)


def hint_texts() -> list[tuple[str, str]]:
    """(where, text) of every string a refusal's hint, a commit problem's fix, or a next step can print."""
    out = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            found: list[ast.AST] = []
            if isinstance(node, ast.keyword) and node.arg in ("hint", "fix"):
                found = [node.value]
            elif isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                found = list(node.args[HINT_CALLS[name]:]) if name in HINT_CALLS else []
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found = [node.value] if any(isinstance(t, ast.Name) and HINT_NAMES.match(t.id) for t in targets) else []
            out += [(f"{rel}:{getattr(n, 'lineno', 0)}", t) for n in found for t in _texts(n)]
    return out


def commands_in(text: str) -> list[str]:
    """The `harness …` commands a text names: in backticks, or in plain words when the word after
    `harness` is one of its commands (so "the harness never writes…" names none)."""
    from harness.cli.main import COMMANDS

    found = TICKED.findall(text)
    rest = TICKED.sub(" ", text)
    found += [rest[m.start():] for m in re.finditer(r"(?<![\w/.-])harness ([a-z][\w-]*)", rest) if m.group(1) in COMMANDS]
    return [part.strip() for c in found for part in c.split(" && ") if part.strip().startswith("harness ")]


def _words(command: str) -> tuple[list[str], bool]:
    """The command's words up to where the prose around it starts; and whether it ends in "…"."""
    try:
        words = shlex.split(command.split(" — ")[0])
    except ValueError:
        words = command.split(" — ")[0].split()
    out, elided = [], False
    for word in words:
        if word in ENDS or word.startswith("("):
            break
        last = word[-1:] in (",", ";", ":", ")", ".") and not word.endswith("...")
        word = word.rstrip(",;:).") if last else word
        if word in ("…", "...", "[--"):
            if out and out[-1].startswith("--"):
                out.append("x")  # an option's value left out
            else:
                elided = True
        elif word:
            out.append(META.get(word, word))
        if last:
            break
    return out, elided


def _subcommands() -> list[str]:
    from harness.cli.main import COMMANDS, cli

    groups = [cli.get_command(click.Context(cli), name) for name in COMMANDS]
    return sorted({sub for g in groups if isinstance(g, click.Group) for sub in g.commands})


def problem_with(command: str) -> str | None:
    """None when the command parses against the real command tree (arguments may be left out, as
    prose does); else why not. Each f-string hole is tried with every kind of value it may hold."""
    words, elided = _words(command)
    tries = [words] + ([[*words, "f.yaml"]] if words and words[-1].startswith("--") else [])
    why = "nothing to parse"
    for base in tries:
        holes = [i for i, w in enumerate(base) if HOLE.search(w)]
        for values in itertools.product(VALUES + _subcommands(), repeat=len(holes)):
            argv = list(base)
            for i, value in zip(holes, values):
                argv[i] = value
            try:
                parse(shlex.join(argv), complete=False)
                return None
            except click.exceptions.NoArgsIsHelpError:
                if elided:  # "harness finding …": the subcommand is the reader's to choose
                    return None
                why = f"{shlex.join(argv)}: names a group without its subcommand"
            except (click.UsageError, click.BadParameter) as exc:
                why = f"{shlex.join(argv)}: {exc.format_message()}"
    return why


def _named() -> list[tuple[str, str]]:
    return sorted({(where, c) for where, text in hint_texts() for c in commands_in(text)})


def test_the_hints_name_enough_commands_for_the_check_to_mean_something():
    named = _named()
    assert len(named) >= 80
    assert any("harness finding verify" in c for _, c in named) and any("harness evidence" in c for _, c in named)


def test_every_command_a_hint_or_next_step_names_exists_with_its_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("f.yaml", "contract.yaml", "CONTRACT.yaml", "FILE"):  # click checks that --file exists
        (tmp_path / name).write_text("")
    bad = [f"{where}: {command!r}: {why}" for where, command in _named() if (why := problem_with(command))]
    assert not bad, "\n".join(bad)


def test_the_hint_check_catches_a_missing_option_command_or_value(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for bad in ("harness requirement set REQ-001 --priority must", "harness task switch --nope",
                "harness finding verify-all F-0001", "harness transition NOWHERE", "harness gate --advance yes"):
        assert problem_with(bad) is not None, bad
    tree = ast.parse('raise Refused("x", hint=f"run `harness requirement set {rid} --priority must`")')
    texts = [t for n in ast.walk(tree) if isinstance(n, ast.keyword) for t in _texts(n.value)]
    assert [problem_with(c) is not None for t in texts for c in commands_in(t)] == [True]
