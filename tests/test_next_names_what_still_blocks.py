"""`Next:` never says "the evidence passes" while the gate would block, and names the command that clears
what it can: the steps of a new user's run (a contract whose requirement names its test, unit_test and
pass_to_pass collected, the requirement cited) — Next: named only `transition REVIEWING — the evidence
passes` while `harness evidence fail_to_pass` was missing; and after a finding was fixed in REVIEWING,
Next: sent the task to REPRODUCING, which its finding no longer needed."""

from __future__ import annotations

import yaml

from harness.core.next_step import next_steps

from support.cli import walk_to
from support.protected_project import SUB, SUB_TEST, TESTS, write

FRESH = {"build": "PASS", "unit_test": "PASS", "pass_to_pass": "PASS"}


def _commands(steps) -> list[str]:
    return [s.command for s in steps]


def test_fail_to_pass_missing_is_collected_in_place_and_reviewing_does_not_claim_the_evidence_passes():
    b = "REQ-001 names test cases, but fail_to_pass evidence is missing: harness evidence fail_to_pass"
    steps = next_steps("VERIFYING", [b], {}, FRESH)
    assert _commands(steps) == ["harness evidence fail_to_pass", "harness transition REVIEWING"]
    assert "the evidence passes" not in steps[-1].why


def test_a_blocker_only_work_clears_is_named_on_the_way_to_review():
    b = "REQ-002: test tests.test_calc::test_add passes without the change (fail_to_pass): it does not prove the requirement"
    steps = next_steps("VERIFYING", [b], {}, FRESH)
    assert _commands(steps) == ["harness transition REVIEWING"]
    assert "the gate would still block: REQ-002: test tests.test_calc::test_add passes without the change" in steps[0].why


def test_nothing_left_still_says_the_evidence_passes():
    steps = next_steps("VERIFYING", [], {}, FRESH)
    assert _commands(steps) == ["harness transition REVIEWING"] and steps[0].why.startswith("the evidence passes")


def test_a_fixed_finding_in_reviewing_is_verified_there_not_sent_to_reproducing():
    commands = _commands(next_steps("REVIEWING", ["Finding F-0001 regression test not verified yet"],
                                    {"F-0001": "FIXED"}, FRESH))
    assert "harness finding verify F-0001" in commands
    assert "harness transition REPRODUCING" not in commands


def test_a_confirmed_finding_in_reviewing_still_goes_to_reproducing():
    commands = _commands(next_steps("REVIEWING", ["Confirmed finding F-0001 has no regression test"],
                                    {"F-0001": "CONFIRMED"}, FRESH))
    assert "harness transition REPRODUCING" in commands


def test_the_new_user_steps_end_in_a_next_that_collects_fail_to_pass(h, repo, base, tmp_path):
    contract = {"contract": {
        "acceptance_criteria": ["calc.sub subtracts"],
        "requirements": [{"statement": "sub(a, b) returns a - b", "priority": "must",
                          "verified_by": ["unit_test", "tests/test_calc.py::test_sub"]}]}}
    path = tmp_path / "contract.yaml"
    path.write_text(yaml.safe_dump(contract))
    h.ok("contract", "apply", "--file", str(path))
    walk_to(h, "IMPLEMENTING")
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    walk_to(h, "VERIFYING")
    h.ok("evidence", "unit_test")
    h.ok("evidence", "pass_to_pass")
    r = h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert "harness evidence fail_to_pass" in r.text, r.text
    status = h.ok("status").out
    assert "harness evidence fail_to_pass" in status and "the evidence passes" not in status, status
    h.ok("evidence", "fail_to_pass")
    assert "harness evidence fail_to_pass" not in h.ok("status").out
