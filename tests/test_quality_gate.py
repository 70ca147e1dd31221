"""The quality gate: the pure core (`harness.core.gate`) and `harness gate` end to end."""

from __future__ import annotations

import copy
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from harness import resources
from harness.cli.gate_report import gate_report_text
from harness.core import gate as core
from harness.core.gate import GateInput, evaluate, evidence_status
from harness.core.states import STATES
from harness.gitio.git import Git
from harness.store.settings import parse_gate

from support.cli import TO_VERIFYING, Harness, gate_json, status_json, walk_to
from support.flows import collect_all, to_gating
from support.processes import py
from support.records import events
from support.templates import Template, template

PY = sys.executable
TREE = "a" * 40
OTHER = "b" * 40


# =======================================================================================
# Pure core
# =======================================================================================

def default_policy() -> dict:
    return copy.deepcopy(parse_gate(resources.template("gate.yaml")).doc)


def ev(outcome: str = "passed", tree: str = TREE, exit_code: int | None = 0) -> dict:
    return {"outcome": outcome, "tree": tree, "exit_code": exit_code}


def req(rid: str = "REQ-001", priority: str = "must", status: str = "verified",
        evidence: list[str] | None = None) -> dict:
    return {"id": rid, "priority": priority, "status": status,
            "evidence": ["unit_test"] if evidence is None else evidence}


def inv(iid: str = "INV-001", status: str = "verified", evidence: list[str] | None = None,
        severity: str = "major") -> dict:
    return {"id": iid, "severity": severity, "status": status,
            "evidence": ["unit_test"] if evidence is None else evidence}


def finding(fid: str = "F-001", severity: str = "major", status: str = "CONFIRMED",
            regression_test: str | None = "tests/test_x.py::test_f", regression_fresh: bool | None = None,
            refuted_tree: str = TREE) -> dict:
    # A rejection holds where the reviewer's reproducer last passed (here: on ``refuted_tree``).
    attempts = [{"command": "repro", "outcome": "passed", "tree": refuted_tree}]
    return {"id": fid, "severity": severity, "status": status, "regression_test": regression_test,
            "regression_fresh": regression_fresh, "content": {"recommended_reproducer": {"command": "repro"}},
            "attempts": attempts}


def gi(**kw) -> GateInput:
    base = dict(state="GATING", requirements=[req()], invariants=[],
                evidence={"build": ev(), "unit_test": ev()}, pending={}, findings=[],
                policy=default_policy(), tree=TREE)
    base.update(kw)
    return GateInput(**base)


def blockers(**kw) -> list[str]:
    return [b.text for b in evaluate(gi(**kw)).blockers]  # the sentences (Blocker.text)


def with_policy(section: str, key: str, value) -> dict:
    pol = default_policy()
    pol[section][key] = value
    return pol


# -- evidence_status --------------------------------------------------------------------

def test_evidence_status_missing_when_no_record():
    assert evidence_status(None, TREE, []) == ("MISSING", None)


def test_evidence_status_pass_only_for_a_passed_run_on_exactly_this_tree():
    assert evidence_status(ev(), TREE, []) == ("PASS", None)


def test_evidence_status_stale_when_the_tree_differs_and_names_both_trees():
    status, why = evidence_status(ev(tree=OTHER), TREE, [])
    assert status == "STALE"
    assert OTHER[:12] in why and TREE[:12] in why


@pytest.mark.parametrize("outcome,code", [("failed", 1), ("timeout", None), ("interrupted", None),
                                          ("not_found", None), ("not_executable", None)])
def test_evidence_status_fail_for_every_outcome_but_passed(outcome, code):
    status, why = evidence_status(ev(outcome, exit_code=code), TREE, [])
    assert status == "FAIL" and outcome in why


def test_evidence_status_failure_outranks_staleness():
    assert evidence_status(ev("failed", tree=OTHER, exit_code=2), TREE, [])[0] == "FAIL"


def test_evidence_status_unknown_when_a_run_never_recorded_even_over_a_pass():
    status, why = evidence_status(ev(), TREE, ["2026-01-01T00:00:00Z"])
    assert status == "UNKNOWN" and "never recorded" in why
    assert evidence_status(None, TREE, ["x"])[0] == "UNKNOWN"


# -- the whole verdict ------------------------------------------------------------------

def test_everything_fresh_and_verified_in_gating_passes():
    r = evaluate(gi())
    assert (r.verdict, [b.text for b in r.blockers]) == ("PASS", [])
    assert ("Evidence", f"TREE MATCH {TREE[:12]}") in r.rows


def test_rows_follow_the_checks_in_order():
    checks = [c for c, _ in evaluate(gi()).rows]
    assert checks == ["Harness Files", "State", "Requirements", "Invariants", "Build", "Unit Tests",
                      "Integration Tests (optional)", "Evidence", "Critical Findings", "Major Findings",
                      "Regression Debt"]


def test_evaluate_is_pure_and_deterministic():
    g = gi(requirements=[req(status="pending")], findings=[finding()])
    snapshot = copy.deepcopy(g)
    first, second = evaluate(g), evaluate(g)
    assert g == snapshot
    assert first.as_dict(TREE) == second.as_dict(TREE)


# -- state ------------------------------------------------------------------------------

@pytest.mark.parametrize("state", [s for s in STATES if s not in core.DECIDING_STATES])
def test_gate_never_passes_outside_deciding_states(state):
    r = evaluate(gi(state=state))
    assert r.verdict == "BLOCKED"
    assert [b.text for b in r.blockers] == [f"state {state}: the gate decides only in GATING"]


@pytest.mark.parametrize("state", core.DECIDING_STATES)
def test_deciding_states_have_no_state_blocker(state):
    assert blockers(state=state) == []


# -- requirements -----------------------------------------------------------------------

@pytest.mark.parametrize("status", ["pending", "implemented", "blocked"])
def test_unverified_must_requirement_blocks_naming_it(status):
    assert blockers(requirements=[req(status=status)]) == ["REQ-001 not verified"]


@pytest.mark.parametrize("priority", ["should", "could"])
def test_unverified_should_or_could_requirement_with_evidence_does_not_block(priority):
    assert blockers(requirements=[req(priority=priority, status="pending")]) == []


def test_must_verified_off_lets_unverified_must_through():
    pol = with_policy("requirements", "must_verified", False)
    assert blockers(requirements=[req(status="pending")], policy=pol) == []


@pytest.mark.parametrize("evidence,phrase", [
    ({"build": ev(), "unit_test": ev("failed", exit_code=1)}, "failing"),
    ({"build": ev(), "unit_test": ev(tree=OTHER)}, "stale"),
])
def test_verified_must_requirement_citing_unusable_evidence_blocks(evidence, phrase):
    assert f"REQ-001 cites unit_test evidence that is {phrase}" in blockers(evidence=evidence)


def test_verified_requirement_citing_missing_evidence_blocks():
    r = blockers(requirements=[req(evidence=["integration_test"])])
    assert r == ["REQ-001 cites integration_test evidence that is missing"]


def test_verified_requirement_citing_evidence_of_unknown_outcome_blocks():
    r = blockers(pending={"unit_test": ["2026-01-01T00:00:00Z"]})
    assert "REQ-001 cites unit_test evidence that is of unknown outcome" in r


def test_requirement_citing_several_types_needs_all_of_them_usable():
    r = blockers(requirements=[req(evidence=["build", "unit_test", "lint"])])
    assert r == ["REQ-001 cites lint evidence that is missing"]


@pytest.mark.parametrize("priority", ["must", "should"])
def test_must_or_should_requirement_citing_no_evidence_is_uncovered(priority):
    r = blockers(requirements=[req(), req("REQ-002", priority=priority, status="pending", evidence=[])])
    uncovered = [b for b in r if "cite no evidence" in b]
    assert uncovered == ["1 requirement(s) cite no evidence: REQ-002 (uncovered_allowed 0)"]


def test_could_requirement_citing_no_evidence_is_not_uncovered():
    assert blockers(requirements=[req(), req("REQ-002", priority="could", status="pending", evidence=[])]) == []


def test_uncovered_allowed_is_a_ceiling():
    reqs = [req(), req("REQ-002", "should", "pending", []), req("REQ-003", "should", "pending", [])]
    assert blockers(requirements=reqs, policy=with_policy("requirements", "uncovered_allowed", 2)) == []
    r = blockers(requirements=reqs, policy=with_policy("requirements", "uncovered_allowed", 1))
    assert r == ["2 requirement(s) cite no evidence: REQ-002, REQ-003 (uncovered_allowed 1)"]


def test_requirements_row_reflects_requirement_blockers():
    assert ("Requirements", "BLOCKED") in evaluate(gi(requirements=[req(status="pending")])).rows
    assert ("Requirements", "PASS") in evaluate(gi()).rows


# -- invariants -------------------------------------------------------------------------

def test_violated_invariant_blocks_naming_it():
    r = evaluate(gi(invariants=[inv("INV-001", "verified"), inv("INV-002", "violated", [])]))
    assert [b.text for b in r.blockers] == ["INV-002 violated"]
    assert ("Invariants", "BLOCKED") in r.rows


def test_violated_allowed_is_a_ceiling():
    one = [inv("INV-001", "violated", [])]
    two = one + [inv("INV-002", "violated", [])]
    pol = with_policy("invariants", "violated_allowed", 1)
    assert blockers(invariants=one, policy=pol) == []
    assert blockers(invariants=two, policy=pol) == ["INV-001 violated", "INV-002 violated"]


def test_verified_invariant_citing_stale_evidence_blocks():
    r = blockers(invariants=[inv(evidence=["build"])], evidence={"build": ev(tree=OTHER), "unit_test": ev()})
    assert "INV-001 cites build evidence that is stale" in r


def test_pending_invariant_does_not_block():
    assert blockers(invariants=[inv(status="pending", evidence=[])]) == []


# -- required and optional verification -------------------------------------------------

def test_missing_required_evidence_blocks():
    r = evaluate(gi(evidence={"unit_test": ev()}))
    assert [b.text for b in r.blockers] == ["build evidence is missing (required)"]
    assert ("Build", "MISSING") in r.rows and ("Evidence", "STALE OR MISSING") in r.rows


def test_failed_required_evidence_blocks_with_outcome_and_exit():
    r = blockers(evidence={"build": ev("failed", exit_code=2), "unit_test": ev()})
    assert r == ["build evidence failed: failed (exit 2)"]


def test_stale_required_evidence_blocks_naming_the_type():
    r = blockers(requirements=[req(evidence=["unit_test"])], evidence={"build": ev(tree=OTHER), "unit_test": ev()})
    assert len(r) == 1 and r[0].startswith("build evidence is stale: ")


def test_unknown_required_evidence_blocks():
    r = blockers(requirements=[req(evidence=["unit_test"])], pending={"build": ["2026-01-01T00:00:00Z"]})
    assert len(r) == 1 and r[0].startswith("build evidence outcome unknown: ")


def test_must_match_head_off_accepts_stale_passing_but_never_failing_evidence():
    pol = with_policy("evidence", "must_match_head", False)
    stale = {"build": ev(tree=OTHER), "unit_test": ev(tree=OTHER)}
    assert blockers(evidence=stale, policy=pol) == []
    failing = {"build": ev("failed", tree=OTHER, exit_code=1), "unit_test": ev(tree=OTHER)}
    assert blockers(evidence=failing, policy=pol) == ["build evidence failed: failed (exit 1)"]


def _optional(notes: list[str]) -> list[str]:
    return [n for n in notes if n.startswith("optional ")]


def test_a_required_type_config_yaml_names_no_command_for_passes_with_a_note_saying_so():
    r = evaluate(gi())
    assert r.verdict == "PASS"
    assert [n for n in r.notes if "config.yaml names none" in n] == [
        f"{t} evidence counts from whatever command ran: config.yaml names none for it, so any passing command "
        "would do and `harness audit --rerun` cannot re-run it" for t in ("build", "unit_test")]
    argv = ["make", "check"]
    ran = {"build": {**ev(), "argv": argv}, "unit_test": {**ev(), "argv": argv}}
    r = evaluate(gi(evidence=ran, configured={"build": argv, "unit_test": argv}))
    assert r.verdict == "PASS" and not [n for n in r.notes if "config.yaml names none" in n]
    # A type a verified requirement cites is what CI re-runs too, required or not.
    cited = gi(evidence={**ran, "integration_test": ev()}, configured={"build": argv, "unit_test": argv},
               requirements=[req(evidence=["integration_test"])])
    assert [n.split()[0] for n in evaluate(cited).notes if "config.yaml names none" in n] == ["integration_test"]


def test_optional_evidence_missing_or_failing_is_reported_not_blocking():
    r = evaluate(gi())
    assert r.verdict == "PASS"
    assert _optional(r.notes) == ["optional integration_test evidence is missing (reported, not required)"]
    assert ("Integration Tests (optional)", "MISSING") in r.rows
    r = evaluate(gi(evidence={"build": ev(), "unit_test": ev(), "integration_test": ev("failed", exit_code=1)}))
    assert r.verdict == "PASS" and _optional(r.notes) == ["optional integration_test evidence is fail (reported, not required)"]


def test_a_type_made_required_by_policy_blocks_when_missing():
    pol = default_policy()
    pol["verification"]["lint"] = "required"
    assert blockers(policy=pol) == ["lint evidence is missing (required)"]
    assert blockers(policy=pol, evidence={"build": ev(), "unit_test": ev(), "lint": ev()}) == []


# -- findings ---------------------------------------------------------------------------

@pytest.mark.parametrize("status", ["PROPOSED", "REPRODUCING", "CONFIRMED"])
def test_open_major_finding_blocks(status):
    r = evaluate(gi(findings=[finding(status=status)]))
    assert r.verdict == "BLOCKED"
    assert [b.text for b in r.blockers] == ["Major finding F-001 is open"]
    assert ("Major Findings", "1") in r.rows


def test_open_critical_finding_blocks():
    assert blockers(findings=[finding(severity="critical")]) == ["Critical finding F-001 is open"]


def test_open_minor_finding_does_not_block():
    assert blockers(findings=[finding(severity="minor")]) == []


def test_rejected_major_finding_refuted_on_another_tree_is_open_again():
    r = evaluate(gi(findings=[finding(status="REJECTED", refuted_tree=OTHER)]))
    assert r.verdict == "BLOCKED"
    assert [b.text for b in r.blockers] == ["Major finding F-001 is open (rejected, but its reproducer has not passed on this "
                          "source tree: harness finding reproduce F-001)"]


@pytest.mark.parametrize("status", ["REJECTED", "VERIFIED", "CLOSED"])
def test_closed_major_finding_does_not_block(status):
    r = evaluate(gi(findings=[finding(status=status, regression_fresh=True)]))
    assert (r.verdict, [b.text for b in r.blockers]) == ("PASS", [])
    assert ("Major Findings", "0") in r.rows


def test_major_allowed_is_a_ceiling():
    pol = with_policy("findings", "major_allowed", 1)
    one = [finding("F-001")]
    assert blockers(findings=one, policy=pol) == []
    assert blockers(findings=one + [finding("F-002")], policy=pol) == [
        "Major finding F-001 is open", "Major finding F-002 is open"]


def test_confirmed_finding_without_regression_test_is_debt():
    r = evaluate(gi(findings=[finding(severity="minor", regression_test=None)]))
    assert [b.text for b in r.blockers] == ["Confirmed finding F-001 has no regression test"]
    assert ("Regression Debt", "1") in r.rows


def test_regression_debt_ceiling():
    pol = with_policy("regression", "confirmed_finding_without_test", 1)
    assert blockers(findings=[finding(severity="minor", regression_test=None)], policy=pol) == []


@pytest.mark.parametrize("status", ["FIXING", "FIXED"])
def test_finding_being_fixed_blocks_until_its_regression_test_is_verified(status):
    r = blockers(findings=[finding(severity="minor", status=status)])
    assert r == ["Finding F-001 regression test not verified yet"]


def test_verified_finding_with_stale_regression_evidence_blocks():
    assert blockers(findings=[finding(status="VERIFIED", regression_fresh=False)]) == [
        "Finding F-001 regression evidence is stale"]
    assert blockers(findings=[finding(status="VERIFIED", regression_fresh=True)]) == []
    assert blockers(findings=[finding(status="VERIFIED", regression_fresh=None)]) == []


def test_closed_finding_with_stale_regression_evidence_blocks_as_a_verified_one_does():
    """Read 96's F-0328: CLOSED is held to the regression run on the gated tree, as VERIFIED is."""
    assert blockers(findings=[finding(status="CLOSED", regression_fresh=False)]) == [
        "Finding F-001 regression evidence is stale"]
    assert blockers(findings=[finding(status="CLOSED", regression_fresh=True)]) == []
    assert blockers(findings=[finding(status="CLOSED", regression_fresh=None)]) == []  # never verified here: legacy


def test_every_blocker_is_reported_not_just_the_first():
    r = evaluate(gi(state="IMPLEMENTING", requirements=[req(status="pending")],
                    invariants=[inv(status="violated", evidence=[])], evidence={},
                    findings=[finding(severity="critical")]))
    assert [b.text for b in r.blockers] == [
        "state IMPLEMENTING: the gate decides only in GATING",
        "REQ-001 not verified",
        "INV-001 violated",
        "build evidence is missing (required)",
        "unit_test evidence is missing (required)",
        "Critical finding F-001 is open",
    ]


def test_render_text_and_as_dict():
    r = evaluate(gi(requirements=[req(status="pending")]))
    text = gate_report_text(r)
    assert text.startswith("QUALITY GATE: BLOCKED")
    assert "Blocking:\n- REQ-001 not verified" in text
    d = r.as_dict(TREE)
    assert d["verdict"] == "BLOCKED" and d["tree"] == TREE and d["blockers"] == ["REQ-001 not verified"]
    assert {"check": "State", "result": "GATING"} in d["checks"]
    assert gate_report_text(evaluate(gi())).startswith("QUALITY GATE: PASS")


# =======================================================================================
# `harness gate` end to end
# =======================================================================================


def _gating_template(tmp_path_factory, on: Template, verify: bool) -> Template:
    def build(repo: Path, h: Harness) -> dict:
        to_gating(h, verify=verify)
        return {}

    return template(tmp_path_factory, f"quality-gate-gating-{'verified' if verify else 'unverified'}", build, on=on)


@pytest.fixture(scope="session")
def gating_template(tmp_path_factory, task_template) -> Template:
    """What ``gating`` copies: the task taken to GATING by ``to_gating``, its requirement verified."""
    return _gating_template(tmp_path_factory, task_template, verify=True)


@pytest.fixture(scope="session")
def gating_unverified_template(tmp_path_factory, task_template) -> Template:
    """What ``gating_unverified`` copies: the same walk, its requirement left unverified."""
    return _gating_template(tmp_path_factory, task_template, verify=False)


@pytest.fixture
def task(task_template, h) -> str:
    """conftest's ``task`` (a fresh current task), copied from this module's template."""
    return task_template.data["task"]


@pytest.fixture
def gating(gating_template, task) -> None:
    """``to_gating(h)`` done on ``task`` (copied from its template)."""


@pytest.fixture
def gating_unverified(gating_unverified_template, task) -> None:
    """``to_gating(h, verify=False)`` done on ``task`` (copied from its template)."""


def test_fresh_pass_after_a_full_legal_walk_exits_0(h, repo, task, gating):
    r = h("gate")
    assert r.code == 0, r.text
    assert r.out.startswith("QUALITY GATE: PASS")
    assert "TREE MATCH" in r.out
    code, doc = gate_json(h)
    assert code == 0 and doc["verdict"] == "PASS" and doc["blockers"] == []
    assert doc["tree"] == Git(repo).worktree_source_tree()


def test_gate_json_parses_with_verdict_blockers_checks_and_notes(h, repo, task, gating_unverified):
    code, doc = gate_json(h)
    assert code == 1
    assert doc["task"] == task and doc["verdict"] == "BLOCKED"
    assert doc["blockers"] == ["REQ-001 not verified",
                               "1 requirement(s) cite no evidence: REQ-001 (uncovered_allowed 0)"]
    assert isinstance(doc["checks"], list) and {"check": "State", "result": "GATING"} in doc["checks"]
    assert doc["recorded"] is True and doc["advanced_to"] is None
    assert isinstance(doc["notes"], list)


def test_unverified_must_requirement_blocks_naming_it_end_to_end(h, repo, task, gating_unverified):
    # covered (cites passing unit_test evidence) but only `implemented`, not `verified`
    h.ok("requirement", "set", "REQ-001", "--status", "implemented", "--evidence", "unit_test")
    r = h("gate")
    assert r.code == 1
    assert "QUALITY GATE: BLOCKED" in r.out and "- REQ-001 not verified" in r.out
    assert gate_json(h)[1]["blockers"] == ["REQ-001 not verified"]


def test_missing_required_evidence_blocks_end_to_end(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "unit_test", "--", *py("pass"))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1 and doc["blockers"] == ["build evidence is missing (required)"]


def test_failed_required_evidence_blocks_end_to_end(h, repo, task, gating):
    assert h("evidence", "build", "--", *py("raise SystemExit(2)")).code == 2
    code, doc = gate_json(h)
    assert code == 1 and doc["blockers"] == ["build evidence failed: failed (exit 2)"]


def test_later_failing_run_replaces_an_earlier_pass(h, repo, task, gating):
    assert h("gate").code == 0
    assert h("evidence", "unit_test", "--", *py("raise SystemExit(1)")).code == 1
    code, doc = gate_json(h)
    assert code == 1
    assert "unit_test evidence failed: failed (exit 1)" in doc["blockers"]
    assert "REQ-001 cites unit_test evidence that is failing" in doc["blockers"]


def test_violated_invariant_blocks_naming_it_end_to_end(h, repo, task):
    h.ok("invariant", "add", "Never loses data", "--category", "correctness", "--severity", "critical")
    to_gating(h)
    h.ok("invariant", "set", "INV-001", "--status", "violated")
    code, doc = gate_json(h)
    assert code == 1 and doc["blockers"] == ["INV-001 violated"]
    h.ok("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")
    assert h("gate").code == 0


def test_uncovered_should_requirement_blocks_end_to_end(h, repo, task, gating):
    h.ok("requirement", "add", "Nice to have", "--priority", "should")
    code, doc = gate_json(h)
    assert code == 1
    assert doc["blockers"] == ["1 requirement(s) cite no evidence: REQ-002 (uncovered_allowed 0)"]


def test_optional_integration_test_missing_is_reported_not_blocking(h, repo, task, gating):
    r = h("gate")
    assert r.code == 0
    assert "Integration Tests (optional)" in r.out and "MISSING" in r.out
    assert "optional integration_test evidence is missing (reported, not required)" in r.out
    _, doc = gate_json(h)
    assert _optional(doc["notes"]) == ["optional integration_test evidence is missing (reported, not required)"]


@pytest.mark.parametrize("stop", ["CREATED", "IMPLEMENTING", "VERIFYING", "REVIEWING"])
def test_gate_never_passes_a_task_mid_work(h, repo, task, stop):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    collect_all(h)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    path = TO_VERIFYING + ("REVIEWING",)
    walk_to(h, *path[: path.index(stop) + 1] if stop != "CREATED" else ())
    assert status_json(h)["state"] == stop
    r = h("gate")
    assert r.code == 1
    assert "PASS" not in r.out.splitlines()[0]
    code, doc = gate_json(h)
    assert code == 1 and doc["blockers"] == [f"state {stop}: the gate decides only in GATING"]


def test_every_evaluation_appends_a_gate_evaluated_event(h, repo, task, gating_unverified):
    n = len(events(repo, task))
    assert h("gate").code == 1
    assert h("gate", "--json").code == 1
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert h("gate").code == 0
    evs = events(repo, task)[n:]
    gates = [e for e in evs if e["type"] == "gate.evaluated"]
    assert len(gates) == 3
    tree = Git(repo).worktree_source_tree()
    for e in gates:
        assert e["data"]["tree"] == tree and e["data"]["head"] == Git(repo).head()
        assert len(e["data"]["policy"]) == 64
    assert [e["data"]["verdict"] for e in gates] == ["BLOCKED", "BLOCKED", "PASS"]
    assert gates[0]["data"]["blockers"] == ["REQ-001 not verified",
                                            "1 requirement(s) cite no evidence: REQ-001 (uncovered_allowed 0)"]
    assert gates[2]["data"]["blockers"] == []
    task_yaml = (repo / ".harness/tasks" / task / "task.yaml").read_text()
    assert "status: PASS" in task_yaml


def test_blocked_evaluation_outside_gating_is_also_recorded(h, repo, task):
    n = len(events(repo, task))
    assert h("gate").code == 1
    new = events(repo, task)[n:]
    assert [e["type"] for e in new] == ["gate.evaluated"]
    assert new[0]["data"]["blockers"][0] == "state CREATED: the gate decides only in GATING"


# -- invalid harness state (exit 2) -----------------------------------------------------

def test_invalid_yaml_in_requirements_file_is_invalid_harness_state(h, repo, task, gating):
    (repo / ".harness/tasks" / task / "requirements.yaml").write_text("requirements: [\n  - id: REQ-001\n  oops: {\n")
    r = h("gate")
    assert r.code == 2
    assert "QUALITY GATE: INVALID_HARNESS_STATE" in r.out and "requirements.yaml" in r.out
    code, doc = gate_json(h)
    assert code == 2 and doc["verdict"] == "INVALID_HARNESS_STATE"


def test_a_chosen_tasks_file_that_does_not_validate_is_still_a_verdict_of_invalid_harness_state(h, repo, task):
    """The neighbour of F-0363: with a task chosen (here by --task), a file of it that does not validate is the
    verdict INVALID_HARNESS_STATE on stdout, pointing at `harness replay`, not the error every command gives."""
    (repo / ".harness/tasks" / task / "requirements.yaml").write_text("requirements: [\n")
    r = h("gate", "--task", task)
    assert r.code == 2 and r.out.startswith("QUALITY GATE: INVALID_HARNESS_STATE") and "requirements.yaml" in r.out
    assert "harness replay" in r.out and r.err == ""
    code, doc = gate_json(h, "--task", task)
    assert code == 2 and doc["verdict"] == "INVALID_HARNESS_STATE" and doc["task"] == task and "ok" not in doc
    assert [n["command"] for n in doc["next"]] == ["harness replay"]


def test_a_policy_that_does_not_validate_is_still_invalid_harness_state_for_the_current_task(h, repo, task):
    (repo / ".harness/gate.yaml").write_text("gate:\n  verification: [not, a, mapping\n")
    code, doc = gate_json(h)
    assert code == 2 and doc["verdict"] == "INVALID_HARNESS_STATE" and doc["task"] == task
    assert "gate.yaml" in doc["error"]


@pytest.mark.parametrize("args,error", [(("--task", "TASK-20990101-000000"), "no task TASK-20990101-000000"),
                                        ((), "no current task")])
def test_no_task_to_judge_is_not_called_an_invalid_harness_state(h, repo, args, error):
    """F-0363: a mistyped --task, or no task yet, is the error every command gives (stderr, exit 2), not a
    verdict: INVALID_HARNESS_STATE means a file that does not validate."""
    r = h("gate", *args)
    assert r.code == 2 and r.out == "", r.out
    assert r.err.startswith(f"harness: {error}\n  hint: ") and "INVALID_HARNESS_STATE" not in r.err


def test_schema_invalid_requirements_file_is_invalid_harness_state(h, repo, task, gating):
    (repo / ".harness/tasks" / task / "requirements.yaml").write_text(
        "requirements:\n  - id: REQ-001\n    statement: x\n    priority: urgent\n")
    assert h("gate").code == 2


def test_invalid_gate_policy_is_invalid_harness_state(h, repo, task, gating):
    (repo / ".harness/gate.yaml").write_text("gate:\n  verification: [not, a, mapping\n")
    assert h("gate").code == 2


def test_invalid_evaluation_is_not_recorded(h, repo, task, gating):
    n = len(events(repo, task))
    (repo / ".harness/tasks" / task / "requirements.yaml").write_text("requirements: [\n")
    assert h("gate").code == 2
    assert len(events(repo, task)) == n


def _failed_unit_test(h) -> None:
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", *py("pass"))
    assert h("evidence", "unit_test", "--", *py("raise SystemExit(1)")).code == 1


@pytest.mark.parametrize("old,new", [('"exit_code": 1', '"exit_code": 0'),
                                     ('"outcome": "failed"', '"outcome": "passed"')])
def test_hand_edited_evidence_json_is_invalid_for_gate_and_replay(h, repo, task, old, new):
    _failed_unit_test(h)
    path = repo / ".harness/tasks" / task / "evidence/unit_test.json"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    r = h("gate")
    assert r.code == 2 and "unit_test.json" in r.out and "digest" in r.out
    assert gate_json(h)[0] == 2
    r = h("replay")
    assert r.code == 2 and "unit_test.json" in r.err
    st = h("status", "--json")
    assert st.code == 2 and json.loads(st.out)["gate_now"]["verdict"] == "INVALID_HARNESS_STATE"


def test_hand_edit_that_keeps_everything_else_passing_still_never_passes(h, repo, task):
    _failed_unit_test(h)
    path = repo / ".harness/tasks" / task / "evidence/unit_test.json"
    doc = json.loads(path.read_text())
    doc.update(outcome="passed", exit_code=0)
    path.write_text(json.dumps(doc, indent=2) + "\n")
    # requirement set reads the ledger, which still says failed
    assert h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test").code == 1
    walk_to(h, "REVIEWING", "GATING")
    assert h("gate").code == 2


def test_deleted_evidence_json_is_invalid_harness_state(h, repo, task, gating):
    (repo / ".harness/tasks" / task / "evidence/build.json").unlink()
    assert h("gate").code == 2
    assert h("replay").code == 2


def test_evidence_json_written_by_hand_is_invalid_harness_state(h, repo, task, gating):
    src = repo / ".harness/tasks" / task / "evidence/unit_test.json"
    (src.parent / "lint.json").write_bytes(src.read_bytes().replace(b'"unit_test"', b'"lint"'))
    assert h("gate").code == 2
    assert h("replay").code == 2


def test_hand_edited_requirement_status_cannot_make_the_gate_pass(h, repo, task, gating_unverified):
    path = repo / ".harness/tasks" / task / "requirements.yaml"
    text = path.read_text()
    assert "status: pending" in text
    path.write_text(text.replace("status: pending", "status: verified").replace("evidence: []", "evidence: [unit_test]"))
    assert h("replay").code == 2  # the files disagree with the ledger
    code, doc = gate_json(h)
    # The gate refuses to judge files that disagree with the ledger, naming the field.
    assert code == 2 and doc["verdict"] == "INVALID_HARNESS_STATE"
    assert "requirements.yaml" in doc["error"] and "REQ-001.status" in doc["error"]
    h.ok("replay", "--write")  # restored from the ledger, the gate judges again: still not verified
    code, doc = gate_json(h)
    assert code == 1 and "REQ-001 not verified" in doc["blockers"]


# -- requirement verification needs passing evidence ------------------------------------

def test_requirement_verified_citing_missing_evidence_is_refused(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    n = len(events(repo, task))
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 1 and "none was collected" in r.err
    assert len(events(repo, task)) == n


def test_requirement_verified_citing_failed_evidence_is_refused(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    assert h("evidence", "unit_test", "--", *py("raise SystemExit(4)")).code == 4
    n = len(events(repo, task))
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 1 and "failed (exit 4)" in r.err
    assert len(events(repo, task)) == n


def test_requirement_verified_citing_one_failed_among_passing_is_refused(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    h.ok("evidence", "build", "--", *py("pass"))
    assert h("evidence", "unit_test", "--", "no-such-command-for-harness-tests").code == 127
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build", "--evidence", "unit_test")
    assert r.code == 1 and "not_found" in r.err


def test_requirement_verified_without_evidence_is_refused(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    assert h("requirement", "set", "REQ-001", "--status", "verified").code == 1


# -- --advance and the gate-guarded transitions -----------------------------------------

def test_advance_on_pass_converges_then_done(h, repo, task, gating):
    code, doc = gate_json(h, "--advance")
    assert code == 0 and doc["advanced_to"] == "CONVERGED"
    assert status_json(h)["state"] == "CONVERGED"
    r = h("transition", "DONE")
    assert r.code == 0, r.text
    assert status_json(h)["state"] == "DONE"
    # a finished task is evaluated but its ledger stays closed
    n = len(events(repo, task))
    r = h("gate")
    assert r.code == 0 and "not recorded" in r.out
    assert len(events(repo, task)) == n


def test_advance_on_blocked_moves_to_blocked_and_counts_an_iteration(h, repo, task, gating_unverified):
    assert status_json(h)["iteration"] == 0
    code, doc = gate_json(h, "--advance")
    assert code == 1 and doc["advanced_to"] == "BLOCKED"
    st = status_json(h)
    assert st["state"] == "BLOCKED" and st["iteration"] == 1
    last = events(repo, task)[-1]
    assert last["type"] == "task.transitioned"
    assert (last["data"]["from"], last["data"]["to"]) == ("GATING", "BLOCKED")
    # around the loop once more: the counter keeps counting
    walk_to(h, "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    assert h("gate", "--advance").code == 1
    assert status_json(h)["iteration"] == 2


def test_advance_outside_gating_is_refused(h, repo, task):
    walk_to(h, *TO_VERIFYING)
    r = h("gate", "--advance")
    assert r.code == 1
    assert status_json(h)["state"] == "VERIFYING"


def test_transition_converged_without_a_gate_pass_is_refused(h, repo, task, gating):
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "INVALID TRANSITION: GATING → CONVERGED" in r.err
    assert status_json(h)["state"] == "GATING"


def test_transition_converged_refused_after_code_changed_since_the_pass(h, repo, task, gating):
    assert h("gate").code == 0
    (repo / "app.py").write_text("def answer():\n    return 7\n")
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "INVALID TRANSITION: GATING → CONVERGED" in r.err
    assert status_json(h)["state"] == "GATING"


def test_transition_converged_refused_after_a_requirement_changed_since_the_pass(h, repo, task, gating):
    assert h("gate").code == 0
    h.ok("requirement", "add", "Also handles zero", "--priority", "could")
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "changed after the last gate PASS" in r.err


def test_transition_converged_refused_after_evidence_recollected_since_the_pass(h, repo, task, gating):
    assert h("gate").code == 0
    h.ok("evidence", "unit_test", "--", *py("pass"))
    assert h("transition", "CONVERGED").code == 1


def test_transition_converged_refused_after_gate_yaml_edited_since_the_pass(h, repo, task, gating):
    assert h("gate").code == 0
    gate_yaml = repo / ".harness/gate.yaml"
    gate_yaml.write_text(gate_yaml.read_text().replace("max_iterations: 5", "max_iterations: 4"))  # a tightening
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "gate.yaml changed" in r.err
    assert h("gate").code == 0  # a new evaluation under the new policy …
    h.ok("transition", "CONVERGED")  # … is what the transition needs


def test_gate_refuses_to_judge_under_an_unapproved_loosening(h, repo, task):
    # A loosened gate.yaml would be refused at commit; the gate must not PASS under it first.
    to_gating(h, verify=False)
    gate_yaml = repo / ".harness/gate.yaml"
    gate_yaml.write_text(gate_yaml.read_text().replace("must_verified: true", "must_verified: false")
                         .replace("uncovered_allowed: 0", "uncovered_allowed: 9"))
    code, doc = gate_json(h)
    assert code == 2 and doc["verdict"] == "INVALID_HARNESS_STATE"
    assert "must_verified turned off" in doc["error"] and "approve gate-change" in doc["error"]
    assert h("transition", "CONVERGED").code == 1


def test_transition_converged_after_a_pass_succeeds(h, repo, task, gating):
    assert h("gate").code == 0
    h.ok("transition", "CONVERGED")
    h.ok("transition", "DONE")


def test_transition_done_refused_when_code_changed_after_converging(h, repo, task, gating):
    assert h("gate", "--advance").code == 0
    (repo / "app.py").write_text("def answer():\n    return 8\n")
    r = h("transition", "DONE")
    assert r.code == 1 and "INVALID TRANSITION: CONVERGED → DONE" in r.err


def test_blocked_verdict_never_allows_converging(h, repo, task, gating_unverified):
    assert h("gate").code == 1
    assert h("transition", "CONVERGED").code == 1


# -- findings end to end (only once a `harness finding` command exists) -----------------

def test_open_major_finding_blocks_end_to_end(h, repo, task):
    from harness.cli.main import COMMANDS

    if "finding" not in COMMANDS:
        pytest.skip("no `harness finding` command yet: covered by test_open_major_finding_blocks (core)")
    to_gating(h)
    assert h("gate").code == 0
    proposal = repo.parent / "finding.yaml"
    proposal.write_text(textwrap.dedent("""
        severity: major
        category: correctness
        title: answer() ignores negative input
        claim: answer() returns 42 for every input
        location: {file: app.py, line: 2}
        failure_scenario: [call answer(), observe 42]
        expected_behavior: the documented answer
        recommended_reproducer: {type: unit_test, description: call it, command: "python3 -c 'import app'"}
    """))
    h.ok("finding", "propose", "--file", str(proposal))
    code, doc = gate_json(h)
    assert code == 1 and doc["verdict"] == "BLOCKED"
    assert len(doc["blockers"]) == 1
    assert re.fullmatch(r"Major finding F-\d+ is open", doc["blockers"][0]), doc["blockers"]
    assert h("transition", "CONVERGED").code == 1


# =======================================================================================
# The ten checks, one function each
# =======================================================================================

def _judging(g: GateInput):
    from harness.core.gate import evidence_status
    from harness.core.gate_checks import Judging

    statuses = {t: evidence_status(g.evidence.get(t), g.tree, g.pending.get(t, []), g.configured.get(t))
                for t in ("build", "lint", "typecheck", "unit_test", "integration_test", "contract_test",
                          "security", "review", "custom")}
    return Judging(g, statuses, stale_ok=not g.policy["evidence"]["must_match_head"])


def test_the_gate_is_its_ten_named_checks_in_the_seeds_order():
    from harness.core.gate_checks import CHECKS

    assert [name for name, _ in CHECKS] == [
        "files_valid", "state_allows", "requirements_verified", "invariants_hold", "required_evidence",
        "evidence_fresh", "critical_findings", "major_findings", "regression_debt", "regression_verified"]


def test_the_verdict_is_the_blockers_of_all_ten_checks_in_order():
    from harness.core.gate_checks import CHECKS

    g = gi(state="IMPLEMENTING", requirements=[req(status="pending")],
           evidence={"build": ev(outcome="failed", exit_code=1)},
           findings=[finding(status="CONFIRMED", regression_test=None), finding("F-002", status="FIXING")])
    each = [b for _, check in CHECKS for b in check(_judging(g)).blockers]
    report = evaluate(g)
    assert report.verdict == "BLOCKED" and report.blockers == each and len(each) >= 5


@pytest.mark.parametrize("check, g, expected", [
    ("state_allows", dict(state="IMPLEMENTING"), "state IMPLEMENTING"),
    ("requirements_verified", dict(requirements=[req(status="implemented")]), "REQ-001 not verified"),
    ("invariants_hold", dict(invariants=[inv(status="violated")]), "INV-001 violated"),
    ("required_evidence", dict(evidence={"build": ev()}), "unit_test evidence is missing"),
    ("major_findings", dict(findings=[finding(status="PROPOSED")]), "Major finding F-001 is open"),
    ("regression_debt", dict(findings=[finding(regression_test=None)]), "has no regression test"),
    ("regression_verified", dict(findings=[finding(status="FIXED")]), "regression test not verified yet"),
])
def test_each_rule_is_judged_by_exactly_one_named_check(check, g, expected):
    from harness.core.gate_checks import CHECKS

    judging = _judging(gi(**g))
    naming = [name for name, fn in CHECKS if any(expected in b.text for b in fn(judging).blockers)]
    assert naming == [check]
