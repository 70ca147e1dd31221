"""Every refusal and `Next:` names a command that resolves it, and that command works when followed as written."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from harness.agent.run import run as agent_hook
from harness.core import next_step

from support.cli import TO_VERIFYING, validate_staged, walk_to
from support.flows import gated_done, proposal, propose
from support.gitrepo import commit_all_ok, git, head, refused_commit
from support.records import configure
from support.skill_commands import parse

PY = sys.executable


def next_commands(h) -> list[str]:
    return [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]


def run_line(repo: Path, line: str) -> None:
    """Run a `git …` line a hint named, as the user would paste it (`&&` chains stop at a failure)."""
    for part in line.split(" && "):
        argv = shlex.split(part)
        assert argv[0] == "git", line
        git(repo, *argv[1:])


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


def test_a_hand_edit_only_replay_undoes_names_the_command_alone_in_its_backticks(h, repo):
    """Copied as written, `harness replay --write (re-render from the ledger)` handed click four arguments more
    (read 105's F-0371): what the command is for is said outside the backticks."""
    tid = h.ok("task", "new", "Timestamps").out.strip()
    path = repo / ".harness/tasks" / tid / "task.yaml"
    path.write_text(re.sub(r"created_at: '\d{4}", "created_at: '1999", path.read_text()))
    r = h("replay")
    assert r.code == 2
    line = next(x for x in r.text.splitlines() if "created_at" in x)
    named = re.findall(r"`(harness [^`]+)`", line)
    assert named == ["harness replay --write"], line
    for command in named:
        parse(command)
    h.ok(*shlex.split(named[0])[1:])
    assert h("replay").code == 0


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
