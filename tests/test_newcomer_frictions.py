"""What a new user hit (issue #26, item 4), each followed step by step as the reporter took it: every
refusal and `Next:` names a command that resolves it, and that command works when followed. Last,
the general rule: every `harness …` command a hint or a next step names exists with its options."""

from __future__ import annotations

import ast
import itertools
import json
import re
import shlex
import sys
from pathlib import Path

import click
import pytest

from harness.agent.run import run as agent_hook
from harness.core import next_step

from support.cli import TO_VERIFYING, validate_staged, walk_to
from support.flows import gated_done, proposal, propose
from support.gitrepo import commit_all_ok, git, head, refused_commit
from support.records import configure
from support.skill_commands import parse

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent


def next_commands(h) -> list[str]:
    return [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]


def run_line(repo: Path, line: str) -> None:
    """Run a `git …` line a hint named, as the user would paste it (`&&` chains stop at a failure)."""
    for part in line.split(" && "):
        argv = shlex.split(part)
        assert argv[0] == "git", line
        git(repo, *argv[1:])


# -- 1. a stray change after DONE ----------------------------------------------------------

@pytest.mark.e2e  # commits through the installed native git hooks
def test_a_change_made_after_done_is_refused_naming_the_stash_not_a_git_add_of_a_staged_file(h, repo):
    (repo / "README.md").write_text("# app\n")
    h.ok("install")
    commit_all_ok(repo, "harness init")
    base = head(repo)
    gated_done(h)
    (repo / "README.md").write_text("# app\n\nA stray line, written after the gate.\n")
    git(repo, "add", "-A")
    text = refused_commit(repo, "done")
    # README.md is staged already: `git add README.md` resolves nothing. What does is named.
    assert "git add README.md" not in text and "stage it too" not in text
    assert "changed after the gate" in text and "git stash push --include-untracked -- README.md" in text
    assert "git stash pop" in text and 'harness task new "TITLE"' in text
    # `status` says the same, not a bare `git add -A && git commit` that would be refused again.
    steps = next_commands(h)
    assert steps[0] == "git stash push --include-untracked -- README.md"
    assert steps[1].startswith("git add -A && git commit")
    run_line(repo, steps[0])
    git(repo, "add", "-A")
    assert git(repo, "commit", "-qm", "done", check=False).returncode == 0
    git(repo, "stash", "pop")
    assert "stray line" in (repo / "README.md").read_text()
    assert head(repo) != base and next_commands(h)[0] == 'harness task new "TITLE"'


def test_under_the_pre_commit_framework_a_partial_or_later_change_is_given_both_ways_out(h, repo, monkeypatch):
    # The framework stashes unstaged changes while hooks run: what is on disk cannot be told apart
    # from the index, so both resolutions are named, each one that works for its case.
    (repo / "README.md").write_text("# app\n")
    commit_all_ok(repo, "harness init")
    gated_done(h)
    (repo / "README.md").write_text("# app\n\nA stray line.\n")
    monkeypatch.setenv("PRE_COMMIT", "1")
    r = validate_staged(repo)
    assert r.returncode == 1
    assert "stage it too (`git add README.md`)" in r.stderr and "if it changed after the gate" in r.stderr
    assert "git stash push --include-untracked -- README.md" in r.stderr


# -- 3. DONE but not committed: session start and stop -------------------------------------

def _agent(event: str, repo: Path, session: str = "s-1") -> dict | None:
    data = {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": str(repo), "permission_mode": "default",
            "hook_event_name": {"session-start": "SessionStart", "stop": "Stop"}[event]}
    data.update({"source": "startup"} if event == "session-start"
                else {"stop_hook_active": False, "last_assistant_message": "Done: the task is DONE."})
    reply = agent_hook("claude", event, json.dumps(data))
    assert reply.code == 0
    return json.loads(reply.stdout) if reply.stdout else None


def test_done_but_not_committed_is_unfinished_for_session_start_and_stop(h, repo):
    tid = gated_done(h)
    context = _agent("session-start", repo)["hookSpecificOutput"]["additionalContext"]
    assert "DONE is not committed yet" in context
    nexts = [line for line in context.splitlines() if line.startswith("Next: ")]
    assert nexts[0].startswith('Next: git add -A && git commit -m "TITLE"')  # as `harness status` says
    assert next_commands(h)[0] == 'git add -A && git commit -m "TITLE"'
    first = _agent("stop", repo)
    assert first is not None and first.get("decision") == "block"
    assert tid in first["reason"] and "not committed" in first["reason"] and "git add -A && git commit" in first["reason"]
    second = _agent("stop", repo)  # once: the commit may be the user's to make
    assert not (second or {}).get("decision")
    commit_all_ok(repo, "done")
    assert _agent("stop", repo, session="s-2") is None
    context = _agent("session-start", repo)["hookSpecificOutput"]["additionalContext"]
    assert "not committed" not in context and 'Next: harness task new "TITLE"' in context


# -- 4. `finding fixed` names the evidence verify needs ----------------------------------

REGRESSION = "tests/test_answer.py"
REGRESSION_TEST = ("import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"
                   "import app\nassert app.answer() == 41\n")


def test_finding_fixed_names_the_fresh_evidence_verify_needs_first(h, repo, tmp_path):
    (repo / ".gitignore").write_text("__pycache__/\n")
    commit_all_ok(repo, "ignore caches")
    configure(repo, [PY, "-c", "pass"], [PY, REGRESSION])
    h.ok("task", "new", "Off by one")
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("finding", "reproduce", "F-0001")  # fails: CONFIRMED
    (repo / "tests").mkdir()
    (repo / REGRESSION).write_text(REGRESSION_TEST)
    h.ok("finding", "regression", "F-0001", REGRESSION, "--", PY, REGRESSION)
    h.ok("evidence", "build")  # collected before the fix: stale once the code changes
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    said = h.ok("finding", "fixed", "F-0001").out
    # The `Next:` block every command prints (issue #26 friction 6: no inline "(next: …)" any more).
    block = said.strip().splitlines()[1:]
    assert block[0].startswith("Next:")
    commands = [line.removeprefix("Next:").split("  — ")[0].strip() for line in block]
    assert not commands[0].startswith("harness finding verify")  # it would be refused: the suite is not fresh
    assert commands == ["harness evidence build", "harness evidence unit_test", "harness finding verify F-0001"]
    for command in commands:  # followed as written, each succeeds
        h.ok(*shlex.split(command)[1:])
    assert json.loads(h.ok("finding", "list", "--json").out)["findings"][0]["status"] == "VERIFIED"


# -- 5. status counts open findings as the gate does ---------------------------------------

def test_status_counts_a_rejection_not_refuted_on_this_tree_as_open_like_the_gate(h, repo, tmp_path):
    h.ok("task", "new", "Refuted, then changed")
    assert propose(h, tmp_path, proposal()).code == 0  # its reproducer exits 1 while answer() is 42
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "reproduce", "F-0001")  # the reviewer's reproducer passes here
    h.ok("finding", "reject", "F-0001", "--reason", "the value is right")
    (repo / "app.py").write_text("def answer():\n    return 42\n")  # but not on this tree
    out = h.ok("status").out
    assert "Major finding F-0001 is open (rejected, but its reproducer has not passed" in out
    assert "major 1 ·" in out and "major 0" not in out
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 1
    # where it was refuted, the two agree again
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    out = h.ok("status").out
    assert "major 0 ·" in out and "F-0001 is open" not in out


# -- 7. the manual gate hook with no task yet ----------------------------------------------

def test_the_manual_gate_hook_with_no_task_yet_says_so_and_exits_1(h, repo):
    r = h("hook", "gate")
    assert r.code == 1, r.text  # no PASS (0), and nothing invalid (2): nothing was judged
    assert "no task yet" in r.out and 'harness task new "TITLE"' in r.out
    assert "task switch" not in r.text and "INVALID_HARNESS_STATE" not in r.text
    assert "harness replay" not in h("gate").text  # nor does `harness gate` send the user to replay
    doc = json.loads(h("hook", "gate", "--json").out)
    assert doc["verdict"] == "NO_TASK" and doc["next"] == 'harness task new "TITLE"'
    h.ok("task", "new", "First")  # with a task, it judges as before
    git(repo, "add", "-A")
    assert h("hook", "gate").code == 1 and "judged on the tree in the index" in h("hook", "gate").out


# -- 8. a hand-edited priority -------------------------------------------------------------

def test_a_hand_edited_priority_is_pointed_at_a_command_that_exists(h, repo):
    tid = h.ok("task", "new", "Priorities").out.strip()
    h.ok("requirement", "add", "It works", "--priority", "should")
    path = repo / ".harness/tasks" / tid / "requirements.yaml"
    path.write_text(path.read_text().replace("priority: should", "priority: must"))
    r = h("replay")
    assert r.code == 2
    line = next(x for x in r.text.splitlines() if "priority" in x)
    assert "requirement set" not in line
    named = re.findall(r"`(harness [^`]+)`", line)
    assert named == ["harness replay --write", 'harness requirement add "STATEMENT" --priority must']
    for command in named:
        parse(command)  # exists, with these options
    assert "fixed when the requirement is added" in line


# -- 9. status names the commit that carries the DONE --------------------------------------

def test_status_names_the_commit_that_carries_the_done_not_the_base(h, repo):
    commit_all_ok(repo, "harness init")
    base = head(repo)
    gated_done(h)
    assert "DONE, not committed yet" in h.ok("status").out
    done = commit_all_ok(repo, "done")
    (repo / "notes.txt").write_text("later\n")
    commit_all_ok(repo, "an unrelated later commit")
    out = h.ok("status").out
    assert f"DONE at {done[:12]}" in out and base[:12] not in out


# -- plus: no `contract apply` once requirements are added ---------------------------------

def test_contract_check_in_implementing_with_requirements_names_no_contract_apply(h, repo):
    h.ok("task", "new", "Item by item")
    h.ok("requirement", "add", "It works", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    assert not any("contract apply" in c for c in next_commands(h))
    r = h("contract", "check")
    assert r.code == 1
    assert "contract apply" not in r.err  # refused once requirements exist or the task has left CREATED
    assert "harness contract check --file FILE" in r.err and "next: harness transition VERIFYING" in r.err


@pytest.mark.parametrize("state", ["CREATED", *TO_VERIFYING, "REVIEWING", "GATING", "BLOCKED", "CONVERGED"])
def test_no_next_step_suggests_contract_apply_once_requirements_exist(state):
    steps = next_step.next_steps(state, requirements=1)
    assert not any("contract apply" in s.command for s in steps), steps


# -- the general rule: every command a hint names exists, with its options -----------------

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
