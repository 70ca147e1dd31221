"""CONVERGED→DONE asks config.yaml's approval now, as the gate does (read 108's F-0379).

F-0361's fix made the gate, `harness status` and the index judge block on a config.yaml change the commit hook refuses
without a human's approval, but `harness transition DONE` asked only for the recorded gate PASS, which is bound to the
source tree without `.harness/`, gate.yaml's digest and HEAD: an evidence command changed after `gate --advance`
reached a DONE whose commit was then refused, and status in DONE said "gate PASS on this source tree". Now the
transition is refused with the blocker's reason, naming the approval or the revert, and status in DONE names the
unapproved change; an honest DONE, and a change a human approved, still go through."""

from __future__ import annotations

import pytest

from support.cli import TO_VERIFYING, status_json, validate_staged, walk_to
from support.gitrepo import commit_all_ok, git
from support.paths import PY
from support.processes import run_in_pty
from support.records import PASS_CMD, configure, narrow_unit_test
from support.ssh_keys import make_key, signers_line

CONFIG = ".harness/config.yaml"
UNIT = [PY, "-c", "pass"]
APPROVE = "harness approve config-change"
REVERT = "git checkout HEAD -- .harness/config.yaml"


@pytest.fixture
def verifying(h, repo, tmp_path) -> str:
    """A task on a committed adoption that configures build and unit_test (an approver listed beside them), its one
    must requirement in VERIFYING."""
    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    configure(repo, PASS_CMD, UNIT)
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    commit_all_ok(repo, "adopt, with evidence commands and an approver")
    tid = h.ok("task", "new", "Add sub").out.strip()
    h.ok("requirement", "add", "sub subtracts", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    (repo / "app.py").write_text("def sub(a, b):\n    return a - b\n")
    return tid


def _to_converged(h) -> None:
    """Honestly: the evidence fresh, `gate --advance` records the PASS."""
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    h.ok("gate", "--advance")
    assert status_json(h)["state"] == "CONVERGED"


@pytest.fixture
def converged(h, verifying) -> str:
    _to_converged(h)
    return verifying


def test_done_is_refused_while_config_yaml_holds_an_unapproved_change(h, repo, converged):
    narrow_unit_test(repo)
    r = h("transition", "DONE")
    assert r.code == 1, r.text
    assert "evidence.unit_test.command" in r.text and "evidence-commands-need-approval" in r.text, r.text
    assert APPROVE in r.text and REVERT in r.text, r.text
    assert status_json(h)["state"] == "CONVERGED"  # nothing written


def test_done_goes_through_once_the_change_is_reverted(h, repo, converged):
    narrow_unit_test(repo)
    assert h("transition", "DONE").code == 1
    git(repo, "checkout", "HEAD", "--", CONFIG)
    h.ok("transition", "DONE")
    assert validate_staged(repo).returncode == 0


def test_an_honest_task_still_reaches_a_committed_done(h, repo, converged):
    h.ok("transition", "DONE")
    assert "gate PASS on this source tree" in h.ok("status").out
    assert validate_staged(repo).returncode == 0


def test_a_change_a_human_approved_still_reaches_a_committed_done(h, repo, verifying):
    # The neighbour a guard comparing config.yaml with HEAD's alone would refuse: the change is approved (before the
    # evidence ran with it, so the PASS is of the approved command).
    narrow_unit_test(repo)
    code, screen = run_in_pty(repo, ["approve", "config-change"], "approve")
    assert code == 0 and "evidence.unit_test.command" in screen, screen
    _to_converged(h)
    h.ok("transition", "DONE")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_status_in_done_names_a_later_unapproved_change_instead_of_a_pass(h, repo, converged):
    h.ok("transition", "DONE")
    narrow_unit_test(repo)
    screen = h.ok("status").out
    assert "gate PASS on this source tree" not in screen, screen
    assert "evidence.unit_test.command" in screen and APPROVE in screen, screen
    data = status_json(h)
    assert "evidence.unit_test.command" in data["done"]["config_unapproved"], data["done"]
    commands = [step["command"] for step in data["next"]]
    assert commands.index(APPROVE) < commands.index('git add -A && git commit -m "TITLE"'), commands
    assert REVERT in commands, commands


# -- F-0394: the transition asks the whole gate now, not only config.yaml's approval -----------------------------

def test_done_is_refused_after_an_approved_command_change_until_the_evidence_is_fresh(h, repo, converged):
    # A human approved the new unit_test command after `gate --advance`: the PASS still names this source tree, but
    # its evidence came from the old command, and the commit check recomputes the gate on what is committed.
    narrow_unit_test(repo)
    code, screen = run_in_pty(repo, ["approve", "config-change"], "approve")
    assert code == 0, screen
    r = h("transition", "DONE")
    assert r.code == 1, r.text
    assert "the gate, recomputed now, blocks" in r.text and "unit_test" in r.text, r.text
    assert "harness evidence unit_test" in r.text, r.text
    assert status_json(h)["state"] == "CONVERGED"  # nothing written
    # The way the refusal names: fresh evidence from the approved command, the gate again, then DONE and its commit.
    h.ok("evidence", "unit_test")
    h.ok("gate")
    h.ok("transition", "DONE")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_done_is_refused_when_a_cited_evidence_record_went_missing_after_the_gate(h, repo, converged):
    # Another way the gate, asked now, cannot pass on the same source tree: the evidence it judged is gone. It is
    # refused as the gate refuses it, naming the record and the way back.
    tid = converged
    (repo / ".harness/tasks" / tid / "evidence" / "unit_test.json").unlink()
    r = h("transition", "DONE")
    assert r.code != 0 and "unit_test.json: missing, but the ledger records it" in r.text, r.text
    assert "harness evidence unit_test" in r.text, r.text
    assert '"to":"DONE"' not in (repo / ".harness/tasks" / tid / "events.jsonl").read_text()  # nothing written
