"""Old ledgers' stalls decide as they did, Next: and refusal hints name commands that are
accepted, the review packet lists tests (and only tests), the contract's must_have_tests rule applies exactly
when the gate's does, and `harness init` ends with the one Next: block."""

from __future__ import annotations

import re

import pytest
import yaml

from harness.cli import progress
from harness.core import converge, findings, next_step
from harness.findings.review import TEST_PATH

from support.cli import cli
from support.gitrepo import git
from support.protected_project import PY, protect, write


def _old_ledger(*sentences: str) -> list[dict]:
    """Text-only gate judgements (as a harness before blocker keys wrote them), each followed by GATING → BLOCKED."""
    events: list[dict] = []
    for text in sentences:
        events += [{"type": "gate.evaluated", "data": {"blockers": [text]}},
                   {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}}]
    return events


def test_an_old_requirement_sentence_no_rule_knows_still_escalates_as_spec_ambiguity():
    old = "REQ-001 names test cases, but cites no run that lists its cases (a command with a junit report)"
    stall = converge.stalled(_old_ledger(*[old] * 4), None, 3)
    assert stall is not None and stall[0] == converge.SPEC_AMBIGUITY, stall


def test_an_old_finding_open_then_open_but_unrefuted_is_one_stalled_blocker():
    open_ = "Major finding F-0001 is open"
    unrefuted = "Major finding F-0001 is open (rejected, but its reproducer has not passed on this code)"
    stall = converge.stalled(_old_ledger(open_, open_, open_, unrefuted), None, 3)
    assert stall is not None and stall[0] == converge.REVIEW_DISAGREEMENT, stall


@pytest.mark.parametrize("path", ["test_utils.R", "test_main.f90", "test_runner", "tests/test_x.py", "test.py"])
def test_test_star_files_of_any_extension_are_listed_as_tests_by_name(path):
    assert TEST_PATH.search(path), path


def test_the_uncovered_plan_warning_names_collecting_the_missing_type_before_citing_it(h, task, repo):
    (repo / ".harness/local/contract.yaml").write_text(yaml.safe_dump({"contract": {
        "acceptance_criteria": ["It works"], "invariants": [],
        "requirements": [{"statement": "It works", "priority": "must",
                          "verified_by": ["unit_test", "integration_test"]}]}}))
    h.ok("contract", "apply")
    for state in ("IMPLEMENTING", "VERIFYING"):
        h.ok("transition", state)
    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", PY, "-c", "pass")
    err = h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test").err
    assert "`harness evidence integration_test`" in err, err
    for suggested in re.findall(r"`(harness requirement set [^`]*)`", err):  # none would be refused now
        assert "integration_test" not in suggested, err


@pytest.mark.parametrize("status,target", [("FIXED", "finding.closed"), ("CONFIRMED", "finding.fixed"),
                                           ("FIXING", "finding.closed"), ("PROPOSED", "finding.fixed")])
def test_a_finding_refusal_hint_is_the_next_steps_command_and_never_a_refused_verify(status, target):
    refusal = findings.step_refusal({"id": "F-0001", "status": status}, target)
    assert refusal is not None
    hint = refusal[1] or ""
    if status == "FIXED":  # verify is refused until the full suite is fresh: not offered as the thing to run
        assert not hint.startswith("harness finding verify"), hint
    else:
        assert hint.startswith(next_step.finding_steps("F-0001", status)[0].command), hint


def test_a_failing_fail_to_pass_run_is_not_cleared_by_rerunning_it():
    def unusable(phrase: str) -> str:  # an old ledger's sentence: classified once, then judged by its kind
        return f"REQ-001 names test cases, but fail_to_pass evidence is {phrase}: harness evidence fail_to_pass"

    assert next_step.clearing(unusable("failing")) == []
    assert [s.command for s in next_step.clearing(unusable("missing"))] == ["harness evidence fail_to_pass"]
    steps = next_step.next_steps("GATING", [unusable("failing")])
    assert steps[0].command == "harness converge --apply", steps


def test_contract_check_asks_no_test_case_when_the_gate_does_not_verify_must_requirements(h, task, repo):
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["requirements"].update(must_verified=False, must_have_tests=True)
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    (repo / ".harness/local/contract.yaml").write_text(yaml.safe_dump({"contract": {
        "acceptance_criteria": ["It works"], "invariants": [],
        "requirements": [{"statement": "It works", "priority": "must", "verified_by": ["unit_test"]}]}}))
    r = h("contract", "check")
    assert r.code == 0, (r.out, r.err)


def test_the_review_packet_lists_no_configuration_file_as_a_test(h, repo, tmp_path):
    protect(repo)
    write(repo, {"pyproject.toml": '[project]\nname = "demo"\n', "app.py": "X = 1\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    h.ok("task", "new", "a change with a new dependency")
    write(repo, {"pyproject.toml": '[project]\nname = "demo"\ndependencies = ["requests"]\n', "app.py": "X = 2\n"})
    out = tmp_path / "packet.md"
    h.ok("review", "packet", "--out", str(out))
    section = re.search(r"^## Tests added or changed\n(.*?)(?=^## )", out.read_text(), re.S | re.M)
    assert section, out.read_text()
    assert "pyproject.toml" not in section.group(1) and "(none" in section.group(1), section.group(1)


def test_init_ends_with_the_one_next_block(repo):
    r = cli(repo, "init")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert not [line for line in lines if line.startswith("next: ")], r.stdout
    assert any(line.startswith(progress.NEXT_LABEL) for line in lines), r.stdout
