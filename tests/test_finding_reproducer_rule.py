"""A critical or major finding carries its reviewer's reproducer, and only that command can
refute it; a minor finding without one is rejected on a reason, not on an implementer's `true`."""

from __future__ import annotations

import json

import pytest
import yaml

from support.flows import proposal, propose
from support.records import PASS_CMD, append_event, tdir


def _no_command(**over) -> dict:
    return proposal(recommended_reproducer={"type": "review", "description": "read it"}, **over)


@pytest.mark.parametrize("severity", ["critical", "major"])
def test_a_blocking_finding_without_its_reviewers_reproducer_is_refused_at_propose(h, ft, repo, tmp_path, severity):
    r = propose(h, tmp_path, _no_command(severity=severity))
    assert r.code == 2, r.text
    assert f"a {severity} finding must carry its reviewer's reproducer command" in r.err
    assert not (tdir(repo, ft) / "findings").exists() or not list((tdir(repo, ft) / "findings").iterdir())


def test_replay_refuses_a_ledger_that_proposes_a_major_finding_without_a_reproducer(h, ft, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="major"))
    events = tdir(repo, ft) / "events.jsonl"
    lines = events.read_text().splitlines()
    last = json.loads(lines[-1])
    assert last["type"] == "finding.proposed"
    content = last["data"]["content"]
    content["recommended_reproducer"].pop("command")
    append_event(repo, ft, "finding.proposed", {"id": "F-0009", "content": content})  # written by hand
    r = h("replay")
    assert r.code == 2 and "must carry its reviewer's reproducer" in r.err, r.text


def test_finding_file_schema_requires_the_command_for_major_findings(h, ft, repo, tmp_path):
    from harness.errors import HarnessError
    from harness.store import validate

    propose(h, tmp_path, proposal(severity="major"))
    doc = yaml.safe_load((tdir(repo, ft) / "findings/F-0001.yaml").read_text())
    validate.check(doc, "finding", "F-0001.yaml")
    doc["recommended_reproducer"]["command"] = None
    with pytest.raises(HarnessError):
        validate.check(doc, "finding", "F-0001.yaml")
    doc["severity"] = "minor"
    validate.check(doc, "finding", "F-0001.yaml")


def test_a_major_finding_is_not_refuted_by_a_command_of_the_implementers_choosing(h, ft, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="major"))
    h.ok("finding", "reproduce", "F-0001", "--", *PASS_CMD)  # `true` passes
    r = h("finding", "reject", "F-0001", "--reason", "true passed")
    assert r.code == 1 and "reviewer's reproducer" in r.err


def test_a_minor_finding_without_a_reproducer_is_rejected_on_its_reason(h, ft, repo, tmp_path):
    propose(h, tmp_path, _no_command(severity="minor"))
    h.ok("finding", "reproduce", "F-0001", "--", *PASS_CMD)
    assert h("finding", "reject", "F-0001", "--reason", "  ").code == 1  # no reason, no rejection
    h.ok("finding", "reject", "F-0001", "--reason", "the behaviour is documented")
    f = yaml.safe_load((tdir(repo, ft) / "findings/F-0001.yaml").read_text())
    assert f["status"] == "REJECTED" and f["rejected_reason"] == "the behaviour is documented"
