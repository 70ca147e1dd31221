"""Convergence (seed §24, §28): CONVERGED, CONTINUE, or ESCALATE with a reason — and no detector that over-fires."""

from __future__ import annotations

import json
import sys

import pytest

from harness.core import converge as c
from harness.core.converge import LoopFacts, decide
from harness.core.policy import loosenings

from support.cli import TO_VERIFYING, status_json, walk_to
from support.flows import to_gating
from support.processes import py

PY = sys.executable


def ev(etype: str, **data) -> dict:
    return {"type": etype, "data": data}


def collected(etype: str, tree: str, outcome: str, run: str, command: str = "pytest -q") -> list[dict]:
    return [ev("evidence.prepared", run_id=run, type=etype, command=command),
            ev("evidence.collected", run_id=run, type=etype, tree=tree, outcome=outcome)]


def blocked_iteration(*blockers: str) -> list[dict]:
    return [ev("gate.evaluated", verdict="BLOCKED", blockers=list(blockers)),
            ev("task.transitioned", **{"from": "GATING", "to": "BLOCKED"})]


def facts(events: list[dict] | None = None, state: str = "BLOCKED", iteration: int = 1, verdict: str = "BLOCKED",
          blockers: list[str] | None = None, max_iterations: int = 5, stalled: int = 3) -> LoopFacts:
    return LoopFacts(state, iteration, max_iterations, verdict,
                     ["unit_test evidence failed: failed (exit 1)"] if blockers is None else blockers,
                     events or [], stalled)


# -- the three outcomes -------------------------------------------------------------------

def test_gate_pass_in_gating_converges_with_exit_0():
    d = decide(facts(state="GATING", verdict="PASS", blockers=[]))
    assert d.decision == "CONVERGED" and d.exit_code == 0


def test_blocked_gate_with_an_actionable_blocker_and_iterations_left_continues_with_exit_1():
    d = decide(facts(iteration=1))
    assert d.decision == "CONTINUE" and d.exit_code == 1
    assert d.blocker == "unit_test evidence failed: failed (exit 1)"


@pytest.mark.parametrize("state,iteration", [("BLOCKED", 5), ("GATING", 4)])
def test_spent_iterations_escalate_max_iterations_with_exit_3(state, iteration):
    d = decide(facts(state=state, iteration=iteration, max_iterations=5))
    assert (d.decision, d.reason, d.exit_code) == ("ESCALATE", "MAX_ITERATIONS", 3)


def test_one_iteration_below_the_ceiling_in_blocked_still_continues():
    assert decide(facts(state="BLOCKED", iteration=4, max_iterations=5)).decision == "CONTINUE"


def test_a_converged_task_whose_gate_passes_or_a_done_task_is_converged():
    assert decide(facts(state="CONVERGED", verdict="PASS", blockers=[])).decision == "CONVERGED"
    # DONE is finished: its gate passed where it was marked DONE (work after it is a new task's)
    assert decide(facts(state="DONE")).decision == "CONVERGED"


def test_a_converged_task_whose_gate_no_longer_passes_continues_naming_the_blocker():
    """Read 114's F-0404: CONVERGED (exit 0) promises the gate passes; after a change the gate is BLOCKED and
    `transition DONE` is refused, so the decision is CONTINUE (exit 1) with the blocker to work on."""
    d = decide(facts(state="CONVERGED", verdict="BLOCKED", blockers=["unit_test evidence is stale: x"]))
    assert (d.decision, d.exit_code, d.blocker) == ("CONTINUE", 1, "unit_test evidence is stale: x")
    assert "CONVERGED" in d.detail and "does not pass" in d.detail


def test_a_converged_task_with_a_blocked_gate_is_never_escalated():
    """CONVERGED leads only to DONE: no detector of a loop that does not converge speaks for it (no move out of it
    escalates), even over a history that would escalate a task in GATING."""
    events = [*collected("unit_test", "t1", "passed", "a"), *collected("unit_test", "t1", "failed", "b")]
    assert decide(facts(events, state="GATING", verdict="BLOCKED")).decision == "ESCALATE"
    assert decide(facts(events, state="CONVERGED", verdict="BLOCKED")).decision == "CONTINUE"


def test_an_escalated_task_reports_its_recorded_reason():
    events = [ev("task.transitioned", **{"from": "BLOCKED", "to": "ESCALATED", "reason": "UNSTABLE_TEST: flaky"})]
    d = decide(facts(events, state="ESCALATED"))
    assert (d.decision, d.reason) == ("ESCALATE", "UNSTABLE_TEST")


# -- UNSTABLE_TEST ------------------------------------------------------------------------

def test_pass_and_fail_of_one_command_on_the_same_tree_is_unstable():
    events = collected("unit_test", "T1", "passed", "r1") + collected("unit_test", "T1", "failed", "r2")
    d = decide(facts(events))
    assert (d.decision, d.reason) == ("ESCALATE", "UNSTABLE_TEST") and "T1" in d.detail


def test_tdd_red_then_green_on_different_trees_is_not_unstable():
    events = collected("unit_test", "T1", "failed", "r1") + collected("unit_test", "T2", "passed", "r2")
    assert c.unstable_evidence(events) is None
    assert decide(facts(events)).decision == "CONTINUE"


def test_a_slow_build_killed_by_its_timeout_then_passing_on_the_same_tree_is_not_unstable():
    events = collected("build", "T1", "timeout", "r1") + collected("build", "T1", "passed", "r2")
    assert c.unstable_evidence(events) is None


def test_a_flaky_network_test_failing_with_a_changing_error_is_not_escalated():
    # Three failures on one tree, each with a different error: a failure, never a flip.
    events = []
    for n, err in enumerate(["ConnectionResetError", "TimeoutError", "gaierror"]):
        events += collected("integration_test", "T1", "failed", f"r{n}")
        events[-1]["data"]["output_tail"] = err
    assert c.unstable_evidence(events) is None
    d = decide(facts(events, iteration=1, blockers=["integration_test evidence failed: failed (exit 1)"]))
    assert d.decision == "CONTINUE"


def test_a_partial_run_passing_and_the_full_suite_failing_on_one_tree_is_not_unstable():
    events = collected("unit_test", "T1", "passed", "r1", "pytest tests/test_a.py") + \
        collected("unit_test", "T1", "failed", "r2", "pytest")
    assert c.unstable_evidence(events) is None


def test_a_reproducer_that_passes_and_fails_on_the_same_tree_is_unstable():
    events = [ev("finding.reproduced", id="F-0001", command="pytest -k x", tree="T1", outcome="failed"),
              ev("finding.reproduced", id="F-0001", command="pytest -k x", tree="T1", outcome="passed")]
    assert "F-0001" in c.unstable_evidence(events)


# -- REPEATED_REGRESSION ------------------------------------------------------------------

def finding_content(title: str = "mul is wrong for negatives", command: str = "python -c 'import calc'",
                    file: str = "calc.py") -> dict:
    return {"severity": "major", "category": "correctness", "title": title, "location": {"file": file},
            "recommended_reproducer": {"type": "unit_test", "description": "d", "command": command}}


def lifecycle_to_closed(fid: str, content: dict) -> list[dict]:
    return [ev("finding.proposed", id=fid, content=content),
            ev("finding.reproduced", id=fid, outcome="failed", tree="T1"),
            ev("finding.verified", id=fid), ev("finding.closed", id=fid)]


def test_the_same_defect_confirmed_again_after_it_was_closed_is_a_repeated_regression():
    events = lifecycle_to_closed("F-0001", finding_content()) + [
        ev("finding.proposed", id="F-0003", content=finding_content(title="negative multiplier broken again")),
        ev("finding.reproduced", id="F-0003", outcome="failed", tree="T3")]
    d = decide(facts(events))
    assert (d.decision, d.reason) == ("ESCALATE", "REPEATED_REGRESSION") and "F-0001" in d.detail


def test_a_different_defect_in_the_same_file_is_not_a_repeated_regression():
    events = lifecycle_to_closed("F-0001", finding_content()) + [
        ev("finding.proposed", id="F-0002", content=finding_content(command="python -c 'import calc; calc.add'")),
        ev("finding.reproduced", id="F-0002", outcome="failed", tree="T3")]
    assert c.repeated_regression(events) is None


def test_a_repeat_proposal_that_does_not_reproduce_is_not_a_regression():
    events = lifecycle_to_closed("F-0001", finding_content()) + [
        ev("finding.proposed", id="F-0002", content=finding_content()),
        ev("finding.reproduced", id="F-0002", outcome="passed", tree="T3")]
    assert c.repeated_regression(events) is None


def test_fingerprint_ignores_title_wording_when_the_reproducer_is_the_same():
    assert c.fingerprint(finding_content(title="a")) == c.fingerprint(finding_content(title="b"))
    assert c.fingerprint(finding_content(command=None) | {"title": "Mul  is WRONG"}) == \
        c.fingerprint(finding_content(command=None) | {"title": "mul is wrong"})


# -- ARCHITECTURE_DEFECT: an invariant violated again ---------------------------------------

def inv(status: str) -> dict:
    return ev("invariant.set", id="INV-001", status=status)


def test_an_invariant_violated_verified_and_violated_again_in_a_later_iteration_escalates():
    events = [inv("violated"), *blocked_iteration("INV-001 violated"), inv("verified"), inv("violated")]
    d = decide(facts(events))
    assert (d.decision, d.reason) == ("ESCALATE", "ARCHITECTURE_DEFECT") and "INV-001" in d.detail


def test_an_invariant_that_flips_within_one_iteration_is_work_in_progress():
    assert c.recurring_invariant_violation([inv("violated"), inv("verified"), inv("violated")]) is None


def test_an_invariant_violated_once_and_then_fixed_is_not_recurring():
    events = [inv("violated"), *blocked_iteration("INV-001 violated"), inv("verified")]
    assert c.recurring_invariant_violation(events) is None


def test_an_invariant_violated_at_the_end_of_every_iteration_of_the_window_escalates_even_as_others_clear():
    events = blocked_iteration("INV-001 violated", "REQ-001 not verified") + blocked_iteration("INV-001 violated") \
        + blocked_iteration("INV-001 violated", "Major finding F-0002 is open")
    assert c.stalled(events, None, 2) is None  # REQ-001 cleared: the set as a whole shrank
    d = decide(facts(events, iteration=3, blockers=["INV-001 violated"], stalled=3))
    assert (d.decision, d.reason) == ("ESCALATE", "ARCHITECTURE_DEFECT") and "last 3 iterations" in d.detail


def test_an_invariant_violated_in_fewer_iterations_than_the_window_is_still_being_fixed():
    events = blocked_iteration("REQ-001 not verified") + blocked_iteration("INV-001 violated") \
        + blocked_iteration("INV-001 violated")
    assert c.persistent_invariant_violation(events, 3) is None
    assert decide(facts(events, iteration=3, blockers=["INV-001 violated"], stalled=3)).decision == "CONTINUE"


# -- the blocker set has not shrunk --------------------------------------------------------

def test_blockers_that_do_not_shrink_over_the_window_escalate():
    stale = "unit_test evidence is stale: collected on source tree {}, the source is now {}"
    events = []
    for n in range(3):  # the tree ids change every time; the blocker is the same
        events += blocked_iteration("integration_test evidence failed: failed (exit 1)", stale.format(f"a{n}", f"b{n}"))
    d = decide(facts(events, iteration=3, blockers=["integration_test evidence failed: failed (exit 2)"], stalled=2))
    assert d.decision == "ESCALATE" and d.reason == "ARCHITECTURE_DEFECT" and "not shrunk in 2" in d.detail


def test_shrinking_blockers_continue():
    events = blocked_iteration("REQ-001 not verified", "INV-001 violated") + blocked_iteration("INV-001 violated") \
        + blocked_iteration("INV-001 violated", "REQ-002 not verified")
    # INV-001 persisted, but REQ-001 was cleared: the set that blocked two iterations ago shrank.
    assert c.stalled(events, None, 2) is None


def test_stalled_on_findings_is_review_disagreement_and_on_requirements_spec_ambiguity():
    f = [b for _ in range(3) for b in blocked_iteration("Major finding F-0001 is open")]
    assert c.stalled(f, None, 2)[0] == "REVIEW_DISAGREEMENT"
    r = [b for _ in range(3) for b in blocked_iteration("REQ-001 not verified")]
    assert c.stalled(r, None, 2)[0] == "SPEC_AMBIGUITY"


def test_fewer_iterations_than_the_window_never_stall():
    events = blocked_iteration("INV-001 violated") + blocked_iteration("INV-001 violated")
    assert c.stalled(events, None, 3) is None


def test_raising_stalled_iterations_is_a_loosening():
    base = {"requirements": {"uncovered_allowed": 0, "must_verified": True}, "invariants": {"violated_allowed": 0},
            "findings": {"critical_allowed": 0, "major_allowed": 0}, "regression": {"confirmed_finding_without_test": 0},
            "convergence": {"max_iterations": 5}, "evidence": {"must_match_head": True}, "verification": {}}
    looser = json.loads(json.dumps(base))
    looser["convergence"]["stalled_iterations"] = 4
    assert loosenings(base, looser) == ["convergence.stalled_iterations raised 3 → 4"]
    tighter = json.loads(json.dumps(base))
    tighter["convergence"]["stalled_iterations"] = 2
    assert loosenings(base, tighter) == []


# -- the command --------------------------------------------------------------------------

def to_gating_failing(h) -> None:
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    assert h("evidence", "unit_test", "--", *py("raise SystemExit(1)")).code == 1  # then the suite fails


def converge_json(h, *extra: str) -> tuple[int, dict]:
    r = h("converge", "--json", *extra)
    return r.code, json.loads(r.out)


def test_converge_on_a_blocked_gate_continues_and_apply_moves_to_blocked(h, task):
    to_gating_failing(h)
    code, doc = converge_json(h)
    assert code == 1 and doc["decision"] == "CONTINUE" and doc["applied"] == []
    assert doc["blocker"] == "REQ-001 cites unit_test evidence that is failing"
    assert status_json(h)["state"] == "GATING"
    code, doc = converge_json(h, "--apply")
    assert code == 1 and doc["applied"] == ["GATING → BLOCKED"]
    s = status_json(h)
    assert s["state"] == "BLOCKED" and s["iteration"] == 1
    assert s["next"][0]["command"] == "harness converge --apply"
    code, doc = converge_json(h, "--apply")
    assert code == 1 and doc["applied"] == ["BLOCKED → IMPLEMENTING"]


def test_converge_escalates_at_max_iterations_and_apply_records_the_reason(h):
    h.ok("task", "new", "One try only", "--max-iterations", "1")
    to_gating_failing(h)
    r = h("converge")
    assert r.code == 3 and r.out.startswith("CONVERGENCE: ESCALATE (MAX_ITERATIONS)")
    assert "harness converge --apply" in r.out
    code, doc = converge_json(h, "--apply")
    assert code == 3 and doc["applied"] == ["GATING → BLOCKED", "BLOCKED → ESCALATED"]
    assert status_json(h)["state"] == "ESCALATED"
    r = h("converge")
    assert r.code == 3 and "MAX_ITERATIONS" in r.out


def test_converge_passes_and_apply_converges(h, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = converge_json(h, "--apply")
    assert code == 0 and doc["decision"] == "CONVERGED" and doc["applied"] == ["GATING → CONVERGED"]
    assert doc["next"][0]["command"] == "harness transition DONE"
    h.ok("transition", "DONE")


def test_converge_on_a_converged_task_whose_code_changed_continues_and_done_waits(h, repo, task):
    """Read 114's F-0404, end to end: after a late change the gate is BLOCKED (stale evidence); converge says
    CONTINUE (exit 1) naming it, as `transition DONE` refuses; once the evidence is collected again, CONVERGED."""
    to_gating(h)
    assert converge_json(h, "--apply")[0] == 0
    code, doc = converge_json(h)
    assert code == 0 and doc["decision"] == "CONVERGED" and doc["gate"] == "PASS"  # the neighbour: it still passes
    (repo / "late.txt").write_text("a late change\n")
    code, doc = converge_json(h)
    assert doc["gate"] == "BLOCKED" and h("transition", "DONE").code == 1
    assert code == 1 and doc["decision"] == "CONTINUE" and doc["state"] == "CONVERGED", doc
    assert doc["blocker"] and "stale" in doc["blocker"], doc
    assert converge_json(h, "--apply")[1]["applied"] == []  # nothing to move: CONVERGED leads only to DONE
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    code, doc = converge_json(h)
    assert code == 0 and doc["decision"] == "CONVERGED"
    h.ok("gate")  # DONE needs the PASS recorded for this tree
    h.ok("transition", "DONE")


def test_a_flaky_command_on_an_unchanged_tree_escalates_unstable_test(h, task, tmp_path):
    counter = tmp_path / "runs"  # outside the repository: the source tree does not change between runs
    flaky = f"import pathlib, sys; p = pathlib.Path({str(counter)!r}); n = int(p.read_text()) if p.exists() else 0; " \
            "p.write_text(str(n + 1)); sys.exit(n % 2)"
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "unit_test", "--", PY, "-c", flaky)
    assert h("evidence", "unit_test", "--", PY, "-c", flaky).code == 1
    r = h("converge")
    assert r.code == 3 and "ESCALATE (UNSTABLE_TEST)" in r.out and "unit_test evidence passed and failed" in r.out


def test_red_then_green_after_a_code_change_does_not_escalate(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    check = ("import sys; sys.path.insert(0, '.'); import app; sys.exit(app.answer() != 43)",)
    assert h("evidence", "unit_test", "--", PY, "-c", *check).code == 1
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    h.ok("evidence", "unit_test", "--", PY, "-c", *check)
    code, doc = converge_json(h)
    assert code == 1 and doc["decision"] == "CONTINUE"


def test_a_build_timing_out_then_passing_on_the_same_tree_does_not_escalate(h, task):
    walk_to(h, *TO_VERIFYING)
    assert h("evidence", "build", "--timeout", "0.1", "--", PY, "-c", "import time; time.sleep(5)").code == 124
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    code, doc = converge_json(h)
    assert code == 1 and doc["decision"] == "CONTINUE"


def test_an_agent_following_next_whose_fixes_never_work_reaches_escalated(h, repo, task):
    # Only a trip through GATING counts an iteration: a loop IMPLEMENTING ⇄ VERIFYING whose
    # fix never works must still be sent to the gate, or it never converges nor escalates.
    import shlex

    cfg = repo / ".harness/config.yaml"
    never = "import sys; sys.path.insert(0, '.'); import app; sys.exit(app.answer() != 43)"
    cfg.write_text(cfg.read_text("utf-8").replace("evidence: {}", "evidence:\n"
                   f"  build:\n    command: [{PY!r}, '-c', 'pass']\n"
                   f"  unit_test:\n    command: [{PY!r}, '-c', {never!r}]\n"))
    (repo / "contract.yaml").write_text(
        "contract:\n  acceptance_criteria: [forty-three]\n  requirements:\n    - statement: The answer is 43\n"
        "      priority: must\n      verified_by: [unit_test]\n")
    h.ok("contract", "apply", "--file", "contract.yaml")
    last, attempts = None, 0
    now = status_json(h)  # read once per change: `status` only reads
    for _ in range(120):
        steps = [n["command"] for n in now["next"]]
        if now["state"] == "ESCALATED":
            break
        cmd = steps[1] if steps[0] == last and len(steps) > 1 else steps[0]  # a review that found nothing
        assert "TYPE" not in cmd and "PATH" not in cmd, cmd
        h(*shlex.split(cmd)[1:])
        now = status_json(h)
        if now["state"] == "IMPLEMENTING":
            attempts += 1
            (repo / "app.py").write_text((repo / "app.py").read_text() + f"# attempt {attempts}\n")  # a fix that fails
            now = status_json(h)
        last = cmd
    assert status_json(h)["state"] == "ESCALATED", steps
    assert "ESCALATE (ARCHITECTURE_DEFECT)" in h("converge").out  # the same failure, iteration after iteration


def test_a_run_during_which_the_source_changed_is_not_a_flip_of_the_tree_it_started_on(h, repo, task, tmp_path):
    # The agent edits while the suite runs: the failure belongs to neither tree for certain.
    walk_to(h, *TO_VERIFYING)
    first = tmp_path / "ran"  # outside the repository
    suite = (f"import pathlib, sys; m = pathlib.Path({str(first)!r}); again = m.exists(); m.write_text('x'); "
             "again and pathlib.Path('app.py').write_text('def answer():\\n    return 0\\n'); sys.exit(int(again))")
    h.ok("evidence", "unit_test", "--", PY, "-c", suite)
    assert h("evidence", "unit_test", "--", PY, "-c", suite).code == 1  # an edit landed during this run
    code, doc = converge_json(h)
    assert code == 1 and doc["decision"] == "CONTINUE", doc


def test_a_task_blocked_by_gate_advance_is_sent_through_the_convergence_checks_next(h, task, tmp_path):
    # gate --advance moves GATING → BLOCKED without the detectors; the next step must run them.
    counter = tmp_path / "runs"
    flaky = f"import pathlib, sys; p = pathlib.Path({str(counter)!r}); n = int(p.read_text()) if p.exists() else 0; " \
            "p.write_text(str(n + 1)); sys.exit(n % 2)"
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", flaky)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    assert h("evidence", "unit_test", "--", PY, "-c", flaky).code == 1
    assert h("gate", "--advance").code == 1
    first = status_json(h)["next"][0]["command"]
    assert first == "harness converge --apply"
    r = h(*first.split()[1:])
    assert r.code == 3 and "UNSTABLE_TEST" in r.out and status_json(h)["state"] == "ESCALATED"
