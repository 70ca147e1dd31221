"""Read 114's F-0402, F-0403: where the gate refuses to judge under .harness/gate.yaml — a loosening of the committed
policy no human approved, or a file that does not validate — `harness status`, every command's `Next:` and the
agent's session context say what the gate says (INVALID_HARNESS_STATE, never PASS), and the `Next:` of that state
names what clears its cause (revert gate.yaml, or a human's approval), not `harness replay`, which knows nothing of
gate.yaml and answers "files agree"."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from harness.agent.run import run as agent_hook

from support.cli import TO_VERIFYING, gate_json, walk_to
from support.flows import new_task
from support.gitrepo import commit_all_ok, git
from support.paths import PY

REVERT = "git checkout HEAD -- .harness/gate.yaml"
APPROVE = "harness approve gate-change"


def _gating_without_unit_test(h, repo: Path) -> str:
    """A task in GATING whose one requirement leans on `build`: the committed policy blocks it for the
    required unit_test evidence it lacks. Returns its id."""
    commit_all_ok(repo, "harness init")
    tid = new_task(h)
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build")
    walk_to(h, "REVIEWING", "GATING")
    assert gate_json(h)[1]["verdict"] == "BLOCKED"
    return tid


def _edit_gate(repo: Path, old: str, new: str) -> None:
    gate = repo / ".harness/gate.yaml"
    text = gate.read_text()
    assert old in text, text
    gate.write_text(text.replace(old, new))


def _loosen(repo: Path) -> None:
    _edit_gate(repo, "unit_test: required", "unit_test: optional")  # what the gate blocked on, made optional


def _session_context(repo: Path) -> str:
    data = {"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": str(repo), "permission_mode": "default",
            "hook_event_name": "SessionStart", "source": "startup"}
    reply = agent_hook("claude", "session-start", json.dumps(data))
    assert reply.code == 0
    return json.loads(reply.stdout)["hookSpecificOutput"]["additionalContext"]


def _commands(doc: dict) -> list[str]:
    return [n["command"] for n in doc["next"]]


# -- F-0402: status, Next: and the session context under an unapproved loosening ---------------------------------

def test_status_reports_the_gates_refusal_of_an_unapproved_loosening_never_pass(h, repo):
    _gating_without_unit_test(h, repo)
    _loosen(repo)
    code, gate = gate_json(h)
    assert code == 2 and gate["verdict"] == "INVALID_HARNESS_STATE"
    r = h("status", "--json")
    doc = json.loads(r.out)
    assert r.code == 2 and doc["gate_now"]["verdict"] == "INVALID_HARNESS_STATE", doc["gate_now"]
    assert any("loosens the committed policy without approval" in b for b in doc["gate_now"]["blockers"])
    text = h("status").out
    gate_line = next(line for line in text.splitlines() if line.startswith("Gate "))
    assert "INVALID_HARNESS_STATE" in gate_line and "PASS" not in gate_line, text
    assert "nothing blocks the gate now" not in text


def test_the_next_step_after_a_command_is_not_the_gate_under_an_unapproved_loosening(h, repo):
    _gating_without_unit_test(h, repo)
    _loosen(repo)
    r = h.ok("evidence", "build", "--", PY, "-c", "pass")
    nexts = [line for line in r.text.splitlines() if line.startswith("Next:")]
    assert nexts and nexts[0].startswith(f"Next:         {REVERT}"), r.text
    assert "nothing blocks the gate now" not in r.text


def test_the_session_starts_with_the_gates_refusal_not_a_pass(h, repo):
    _gating_without_unit_test(h, repo)
    _loosen(repo)
    context = _session_context(repo)
    assert "gate now: INVALID_HARNESS_STATE" in context and "gate now: PASS" not in context, context
    assert f"Next: {REVERT}" in context, context


def test_status_under_a_tightened_uncommitted_policy_judges_by_it(h, repo):
    """The neighbour a careless guard would refuse: tightening is free, so status judges under the working tree's
    gate.yaml, as the gate does, and names what it now blocks on."""
    _gating_without_unit_test(h, repo)
    _edit_gate(repo, "integration_test: optional", "integration_test: required")
    code, gate = gate_json(h)
    assert code == 1 and any("integration_test" in b for b in gate["blockers"])
    r = h("status", "--json")
    doc = json.loads(r.out)
    assert r.code == 0 and doc["gate_now"]["verdict"] == "BLOCKED"
    assert any("integration_test" in b for b in doc["gate_now"]["blockers"])


# -- F-0403: the next step out of INVALID_HARNESS_STATE clears its cause -------------------------------------------

def test_gate_and_status_name_the_revert_and_the_approval_of_an_unapproved_loosening(h, repo):
    _gating_without_unit_test(h, repo)
    _loosen(repo)
    _, gate = gate_json(h)
    assert _commands(gate) == [REVERT, APPROVE], gate["next"]
    assert _commands(json.loads(h("status", "--json").out))[:2] == [REVERT, APPROVE]
    assert f"Next:         {REVERT}" in h("gate").out
    # followed as written, the revert clears it: the gate judges again (BLOCKED on the missing unit_test)
    git(repo, *shlex.split(REVERT)[1:])
    code, gate = gate_json(h)
    assert code == 1 and gate["verdict"] == "BLOCKED"
    assert json.loads(h.ok("status", "--json").out)["gate_now"]["verdict"] == "BLOCKED"


def test_a_gate_yaml_that_does_not_validate_names_its_fix_not_replay(h, repo):
    _gating_without_unit_test(h, repo)
    _edit_gate(repo, "max_iterations: 5", "max_iterations: five")
    code, gate = gate_json(h)
    assert code == 2 and gate["verdict"] == "INVALID_HARNESS_STATE"
    assert "harness replay" not in _commands(gate) and REVERT in _commands(gate), gate["next"]
    r = h("status", "--json")
    doc = json.loads(r.out)
    assert r.code == 2 and doc["gate_now"]["verdict"] == "INVALID_HARNESS_STATE"
    assert "harness replay" not in _commands(doc) and REVERT in _commands(doc), doc["next"]
    git(repo, *shlex.split(REVERT)[1:])
    assert gate_json(h)[0] == 1


def test_task_files_that_disagree_with_the_ledger_still_name_replay(h, repo):
    """The neighbour: where a task file disagrees with its ledger, `harness replay` is what shows it and restores it."""
    tid = _gating_without_unit_test(h, repo)
    path = repo / ".harness/tasks" / tid / "requirements.yaml"
    path.write_text(path.read_text().replace("status: verified", "status: proposed"))
    code, gate = gate_json(h)
    assert code == 2 and gate["verdict"] == "INVALID_HARNESS_STATE"
    assert _commands(gate) == ["harness replay"]
