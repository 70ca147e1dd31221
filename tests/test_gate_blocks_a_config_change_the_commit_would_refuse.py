"""The gate blocks on a config.yaml change the commit hook would refuse without a human's approval (read 103's F-0361).

The gate judged a changed evidence command only where a must requirement cited its type: a configured command
narrowed during a task with no `harness approve config-change` still gave PASS, `gate --advance` and `transition DONE`
went through, and only the commit hook refused (evidence-commands-need-approval). The DONE could then never be
committed: reverting config.yaml left no gate PASS for the tree, and a DONE task takes no new evidence. `harness
status` said PASS while the commit said no, and so did the pre-commit `harness-gate` hook (the index judge). Now the
gate, status and the index judge block on such a change, naming the approval or the revert, as data (check
`files_valid`, kind `config_unapproved`); an approved change, and one that needs no approval, still pass."""

from __future__ import annotations

import json

import pytest
import yaml

from support.cli import TO_VERIFYING, gate_json, status_json, validate_staged, walk_to
from support.gitrepo import commit_all_ok, git
from support.paths import PY
from support.processes import run_in_pty
from support.records import PASS_CMD, configure, events, narrow_unit_test
from support.ssh_keys import make_key, signers_line

CONFIG = ".harness/config.yaml"
UNIT = [PY, "-c", "pass"]
APPROVE = "harness approve config-change"
REVERT = "git checkout HEAD -- .harness/config.yaml"


@pytest.fixture
def verifying(h, repo, tmp_path) -> str:
    """A task on a committed adoption that configures build and unit_test, with an approver listed beside them; its
    one requirement (a `should`: no must requirement cites a type, so the must-only check never looks) in
    VERIFYING."""
    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    configure(repo, PASS_CMD, UNIT)
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    commit_all_ok(repo, "adopt, with evidence commands and an approver")
    tid = h.ok("task", "new", "Add sub").out.strip()
    h.ok("requirement", "add", "sub subtracts", "--priority", "should")
    walk_to(h, *TO_VERIFYING)
    return tid


def _to_gating(h) -> None:
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


def _config_blockers(blockers: list[str]) -> list[str]:
    return [b for b in blockers if APPROVE in b]


def test_an_unapproved_command_change_blocks_the_gate_status_and_the_index_judge_alike(h, repo, verifying):
    narrow_unit_test(repo)
    _to_gating(h)
    code, report = gate_json(h)
    assert code == 1 and report["verdict"] == "BLOCKED", report
    named = _config_blockers(report["blockers"])
    assert len(named) == 1 and "evidence.unit_test.command" in named[0] and REVERT in named[0], report["blockers"]
    recorded = [e for e in events(repo, verifying) if e["type"] == "gate.evaluated"][-1]["data"]
    assert {"check": "files_valid", "kind": "config_unapproved", "subject": ["config.yaml"]} in recorded["blocker_keys"]
    assert APPROVE in [step["command"] for step in report["next"]], report["next"]
    live = status_json(h)["gate_now"]
    assert live["verdict"] == "BLOCKED" and named[0] in live["blockers"], live
    git(repo, "add", "-A")
    index = h("hook", "gate", "--json")
    judged = json.loads(index.out)
    assert index.code == 1 and judged["verdict"] == "BLOCKED" and named[0] in judged["blockers"], judged
    # ... which is what the commit hook refuses: they agree.
    refused = validate_staged(repo)
    assert refused.returncode == 1 and "evidence-commands-need-approval" in refused.stderr, refused.stderr


def test_the_task_cannot_reach_done_on_an_unapproved_command(h, repo, verifying):
    narrow_unit_test(repo)
    _to_gating(h)
    r = h("gate", "--advance")
    assert r.code == 1 and APPROVE in r.out, r.text
    assert status_json(h)["state"] == "BLOCKED"
    assert h("transition", "DONE").code != 0


def test_an_approved_command_change_still_passes(h, repo, verifying):
    narrow_unit_test(repo)
    code, screen = run_in_pty(repo, ["approve", "config-change"], "approve")
    assert code == 0 and "evidence.unit_test.command" in screen, screen
    _to_gating(h)
    code, report = gate_json(h)
    assert code == 0 and report["verdict"] == "PASS", report
    assert status_json(h)["gate_now"]["verdict"] == "PASS"
    git(repo, "add", "-A")
    index = h("hook", "gate", "--json")
    assert index.code == 0 and json.loads(index.out)["verdict"] == "PASS", index.text
    assert validate_staged(repo).returncode == 0


def test_a_change_that_needs_no_approval_still_passes(h, repo, verifying):
    # The legitimate neighbour: adding a redaction pattern loosens nothing; the commit hook lets it through, so does
    # the gate.
    config = repo / CONFIG
    doc = yaml.safe_load(config.read_text())
    doc["redaction"] = {**(doc.get("redaction") or {}), "patterns": ["zqx[0-9]{6}"]}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    _to_gating(h)
    code, report = gate_json(h)
    assert code == 0 and report["verdict"] == "PASS", report
    assert status_json(h)["gate_now"]["verdict"] == "PASS"
    git(repo, "add", "-A")
    assert h("hook", "gate").code == 0
    assert validate_staged(repo).returncode == 0


def test_a_change_before_the_harness_is_committed_still_passes(h, repo):
    # The other neighbour: the commit that adopts the harness configures its commands itself (no approval asked).
    configure(repo, PASS_CMD, UNIT)
    h.ok("task", "new", "Adopt")
    h.ok("requirement", "add", "it builds", "--priority", "should")
    walk_to(h, *TO_VERIFYING)
    _to_gating(h)
    code, report = gate_json(h)
    assert code == 0 and report["verdict"] == "PASS", report


def test_evidence_with_no_command_says_adding_one_needs_approval_after_adoption(h, repo, verifying):
    r = h("evidence", "custom.smoke")
    assert r.code != 0 and "evidence.custom.smoke.command" in r.err, r.err
    assert APPROVE in r.err, r.err
