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

# Puts back HEAD's gate.yaml, or init's when HEAD holds none (read 116's F-0417: `git checkout HEAD -- …` failed then).
REVERT = "harness init --restore-gate"
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
    h.ok(*shlex.split(REVERT)[1:])
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
    h.ok(*shlex.split(REVERT)[1:])
    assert gate_json(h)[0] == 1


# -- F-0417: the named revert works where HEAD holds no gate.yaml ------------------------------------------------

def _adopted_not_committed(h, repo: Path) -> bytes:
    """The harness adopted in an existing project and not committed yet (HEAD holds no gate.yaml: the policy compared
    with is the one `harness init` writes), a task with evidence. Returns gate.yaml as init wrote it."""
    assert git(repo, "cat-file", "-e", "HEAD:.harness/gate.yaml", check=False).returncode != 0
    new_task(h)
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    return (repo / ".harness/gate.yaml").read_bytes()


def test_a_loosening_where_head_holds_no_gate_yaml_names_a_revert_that_clears_it(h, repo):
    inits = _adopted_not_committed(h, repo)
    _edit_gate(repo, "major_allowed: 0", "major_allowed: 5")
    (repo / ".harness/config.yaml").write_text((repo / ".harness/config.yaml").read_text() + "# mine\n")
    code, gate = gate_json(h)
    assert code == 2 and gate["verdict"] == "INVALID_HARNESS_STATE" and _commands(gate) == [REVERT, APPROVE]
    assert _commands(json.loads(h("status", "--json").out))[:2] == [REVERT, APPROVE]
    r = h.ok(*shlex.split(REVERT)[1:])
    assert "init" in r.out and "HEAD holds none" in r.out, r.out
    assert (repo / ".harness/gate.yaml").read_bytes() == inits
    assert (repo / ".harness/config.yaml").read_text().endswith("# mine\n")  # nothing else is touched
    assert gate_json(h)[1]["verdict"] == "BLOCKED"  # judged again


def test_a_gate_yaml_that_does_not_validate_where_head_holds_none_is_restored_to_inits(h, repo):
    inits = _adopted_not_committed(h, repo)
    _edit_gate(repo, "max_iterations: 5", "max_iterations: five")
    code, gate = gate_json(h)
    assert code == 2 and _commands(gate)[0] == REVERT, gate["next"]
    h.ok(*shlex.split(REVERT)[1:])
    assert (repo / ".harness/gate.yaml").read_bytes() == inits and gate_json(h)[0] == 1


def test_a_missing_gate_yaml_is_restored_as_head_holds_it_not_as_init_writes_it(h, repo):
    # HEAD's policy is stricter than init's: init's defaults in its place would be a loosening, refused again.
    tid = _gating_without_unit_test(h, repo)
    _edit_gate(repo, "max_iterations: 5", "max_iterations: 4")
    commit_all_ok(repo, "a stricter policy")
    committed = (repo / ".harness/gate.yaml").read_bytes()
    (repo / ".harness/gate.yaml").unlink()
    code, gate = gate_json(h)
    assert code == 2 and _commands(gate)[0] == REVERT and REVERT in gate["error"], gate
    r = h.ok(*shlex.split(REVERT)[1:])
    assert "HEAD" in r.out and (repo / ".harness/gate.yaml").read_bytes() == committed, r.out
    assert gate_json(h)[1]["verdict"] == "BLOCKED" and tid


def test_restore_gate_on_an_unborn_branch_writes_inits_policy(tmp_path):
    from support.cli import cli

    repo = tmp_path / "fresh"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    assert cli(repo, "init").returncode == 0
    inits = (repo / ".harness/gate.yaml").read_bytes()
    (repo / ".harness/gate.yaml").write_text("gate: {}\n")
    r = cli(repo, "init", "--restore-gate")
    assert r.returncode == 0 and (repo / ".harness/gate.yaml").read_bytes() == inits, r.stdout + r.stderr


def test_restore_gate_outside_a_work_tree_is_refused(tmp_path):
    from support.cli import cli

    r = cli(tmp_path, "init", "--restore-gate")
    assert r.returncode != 0 and "git work tree" in r.stderr, r.stdout + r.stderr
    assert not (tmp_path / ".harness").exists()


def test_task_files_that_disagree_with_the_ledger_still_name_replay(h, repo):
    """The neighbour: where a task file disagrees with its ledger, `harness replay` is what shows it and restores it."""
    tid = _gating_without_unit_test(h, repo)
    path = repo / ".harness/tasks" / tid / "requirements.yaml"
    path.write_text(path.read_text().replace("status: verified", "status: proposed"))
    code, gate = gate_json(h)
    assert code == 2 and gate["verdict"] == "INVALID_HARNESS_STATE"
    assert _commands(gate) == ["harness replay"]
