"""The pure state machine (harness.core.states) and `harness validate-transition`, pair by pair."""

from __future__ import annotations

import itertools

import pytest

from harness.core import states
from harness.core.states import Allowed, Refusal, TransitionContext, check_transition

STATES = (
    "CREATED", "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING",
    "REPRODUCING", "FIXING", "GATING", "BLOCKED", "CONVERGED", "DONE", "ESCALATED",
)
# The seed's table, written out independently of the module under test.
EXPECTED_LEGAL = {
    ("CREATED", "SPECIFYING"), ("SPECIFYING", "PLANNED"), ("PLANNED", "IMPLEMENTING"),
    ("IMPLEMENTING", "VERIFYING"), ("VERIFYING", "IMPLEMENTING"), ("VERIFYING", "REVIEWING"),
    ("REVIEWING", "REPRODUCING"), ("REVIEWING", "GATING"), ("REPRODUCING", "REVIEWING"),
    ("REPRODUCING", "FIXING"), ("FIXING", "VERIFYING"), ("GATING", "BLOCKED"),
    ("GATING", "CONVERGED"), ("BLOCKED", "IMPLEMENTING"), ("BLOCKED", "REPRODUCING"),
    ("BLOCKED", "ESCALATED"), ("CONVERGED", "DONE"),
}
CODES = ("SPEC_AMBIGUITY", "ARCHITECTURE_DEFECT", "REPEATED_REGRESSION",
         "UNSTABLE_TEST", "REVIEW_DISAGREEMENT", "MAX_ITERATIONS")
ALL_PAIRS = list(itertools.product(STATES, STATES))
# Everything a legal transition may need beyond the table: a reason code, a current gate PASS.
PERMISSIVE = TransitionContext(iteration=0, max_iterations=5, reason="SPEC_AMBIGUITY: unclear",
                               gate_pass_current=True, gate_pass_detail="gate PASS for the current source tree")


def pair_id(pair):
    return f"{pair[0]}->{pair[1]}"


def test_thirteen_states_and_seventeen_legal_transitions():
    assert tuple(states.STATES) == STATES
    assert set(states.LEGAL) == EXPECTED_LEGAL
    assert len(EXPECTED_LEGAL) == 17
    assert tuple(states.ESCALATION_CODES) == CODES


@pytest.mark.parametrize("pair", ALL_PAIRS, ids=pair_id)
def test_every_pair_is_allowed_exactly_when_in_the_table(pair):
    current, target = pair
    verdict = check_transition(current, target, PERMISSIVE)
    if pair in EXPECTED_LEGAL:
        assert isinstance(verdict, Allowed), verdict
    else:
        assert isinstance(verdict, Refusal), f"{current} → {target} was allowed"
        assert verdict.message.startswith(f"INVALID TRANSITION: {current} → {target}"), verdict.message


def test_illegal_pairs_are_refused_as_values_even_with_a_bare_context():
    # No exception for any pair under the default (most restrictive) context either.
    for current, target in ALL_PAIRS:
        verdict = check_transition(current, target, TransitionContext())
        assert isinstance(verdict, (Allowed, Refusal))
        if (current, target) not in EXPECTED_LEGAL:
            assert isinstance(verdict, Refusal)
            assert f"{current} → {target}" in verdict.message


def test_done_is_reachable_only_from_converged():
    sources = {c for c in STATES if isinstance(check_transition(c, "DONE", PERMISSIVE), Allowed)}
    assert sources == {"CONVERGED"}


@pytest.mark.parametrize("terminal", ["DONE", "ESCALATED"])
def test_nothing_leaves_a_terminal_state(terminal):
    for target in STATES:
        verdict = check_transition(terminal, target, PERMISSIVE)
        assert isinstance(verdict, Refusal), f"{terminal} → {target} was allowed"
        assert f"{terminal} → {target}" in verdict.message
    assert frozenset({"DONE", "ESCALATED"}) == states.TERMINAL


def test_unknown_state_names_are_refused_not_raised():
    verdict = check_transition("NOPE", "DONE", PERMISSIVE)
    assert isinstance(verdict, Refusal) and "NOPE" in verdict.message
    verdict = check_transition("CREATED", "FINISHED", PERMISSIVE)
    assert isinstance(verdict, Refusal) and "FINISHED" in verdict.message


def test_refusal_hint_lists_the_legal_targets():
    verdict = check_transition("IMPLEMENTING", "DONE", TransitionContext())
    assert isinstance(verdict, Refusal)
    assert verdict.hint and "VERIFYING" in verdict.hint


# -- iteration counting and the max_iterations ceiling -------------------------------------

def test_gating_to_blocked_increments_iteration():
    verdict = check_transition("GATING", "BLOCKED", TransitionContext(iteration=2, max_iterations=5))
    assert verdict == Allowed(iteration=3)


@pytest.mark.parametrize("pair", sorted(EXPECTED_LEGAL - {("GATING", "BLOCKED")}), ids=pair_id)
def test_no_other_transition_changes_iteration(pair):
    ctx = TransitionContext(iteration=2, max_iterations=5, reason="UNSTABLE_TEST: flaky", gate_pass_current=True)
    assert check_transition(*pair, ctx) == Allowed(iteration=2)


def test_gating_to_blocked_is_allowed_at_the_ceiling_so_the_task_can_escalate():
    # Reaching the ceiling happens by blocking; the refusal comes on the way out of BLOCKED.
    assert check_transition("GATING", "BLOCKED", TransitionContext(iteration=4, max_iterations=5)) == Allowed(5)


@pytest.mark.parametrize("iteration,max_iterations", [(5, 5), (6, 5), (1, 1)])
@pytest.mark.parametrize("target", ["IMPLEMENTING", "REPRODUCING"])
def test_blocked_at_max_iterations_may_only_escalate(target, iteration, max_iterations):
    ctx = TransitionContext(iteration=iteration, max_iterations=max_iterations)
    verdict = check_transition("BLOCKED", target, ctx)
    assert isinstance(verdict, Refusal)
    assert verdict.message.startswith(f"INVALID TRANSITION: BLOCKED → {target}")
    assert "max_iterations" in verdict.message
    esc = TransitionContext(iteration=iteration, max_iterations=max_iterations, reason="MAX_ITERATIONS: loop")
    assert isinstance(check_transition("BLOCKED", "ESCALATED", esc), Allowed)


@pytest.mark.parametrize("target", ["IMPLEMENTING", "REPRODUCING"])
def test_blocked_below_max_iterations_may_loop_back(target):
    assert isinstance(check_transition("BLOCKED", target, TransitionContext(iteration=4, max_iterations=5)), Allowed)


# -- ESCALATED reason codes ---------------------------------------------------------------

@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("form", ["{code}", "{code}: some detail", "  {code}:detail"])
def test_escalated_accepts_each_reason_code(code, form):
    ctx = TransitionContext(iteration=1, max_iterations=5, reason=form.format(code=code))
    assert isinstance(check_transition("BLOCKED", "ESCALATED", ctx), Allowed)
    assert states.escalation_code(form.format(code=code)) == code


@pytest.mark.parametrize("reason", [
    None, "", "   ", "because I said so", "BOGUS: detail", "spec_ambiguity: lower case",
    "SPEC_AMBIGUITYX: glued", "detail first SPEC_AMBIGUITY",
    ": detail without a code", ":", "  : x",
])
def test_escalated_without_a_reason_code_is_refused_as_a_value(reason):
    ctx = TransitionContext(iteration=1, max_iterations=5, reason=reason)
    verdict = check_transition("BLOCKED", "ESCALATED", ctx)  # must not raise, whatever the text
    assert isinstance(verdict, Refusal)
    assert verdict.message.startswith("INVALID TRANSITION: BLOCKED → ESCALATED")
    assert "reason code" in verdict.message


# -- gate-guarded transitions -------------------------------------------------------------

@pytest.mark.parametrize("pair", [("GATING", "CONVERGED"), ("CONVERGED", "DONE")], ids=pair_id)
def test_gate_guarded_transitions_need_a_current_gate_pass(pair):
    detail = "the last gate evaluation was BLOCKED"
    verdict = check_transition(*pair, TransitionContext(gate_pass_current=False, gate_pass_detail=detail))
    assert isinstance(verdict, Refusal)
    assert verdict.message.startswith(f"INVALID TRANSITION: {pair[0]} → {pair[1]}")
    assert detail in verdict.message
    assert isinstance(check_transition(*pair, TransitionContext(gate_pass_current=True)), Allowed)


def test_default_context_says_no_gate_evaluation_was_recorded():
    verdict = check_transition("GATING", "CONVERGED", TransitionContext())
    assert isinstance(verdict, Refusal) and "no gate evaluation recorded" in verdict.message


@pytest.mark.parametrize("pair", sorted(EXPECTED_LEGAL - {("GATING", "CONVERGED"), ("CONVERGED", "DONE"),
                                                          ("BLOCKED", "ESCALATED")}), ids=pair_id)
def test_other_legal_transitions_need_no_gate_and_no_reason(pair):
    assert isinstance(check_transition(*pair, TransitionContext()), Allowed)


# -- `harness validate-transition A B`, all 169 pairs through the CLI ----------------------

@pytest.fixture(scope="module")
def validate_cli():
    """The in-process CLI for validate-transition (it reads no repository)."""
    import contextlib
    import io

    from harness.cli.main import main

    def run(*args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["validate-transition", *args])
        return code, out.getvalue() + err.getvalue()

    return run


@pytest.mark.parametrize("pair", ALL_PAIRS, ids=pair_id)
def test_validate_transition_cli_matches_the_table(validate_cli, pair):
    current, target = pair
    code, text = validate_cli(current, target)
    if pair in EXPECTED_LEGAL:
        assert code == 0, text
        assert f"{current} → {target}" in text and "INVALID" not in text
    else:
        assert code == 1, text
        assert f"INVALID TRANSITION: {current} → {target}" in text
    assert "Traceback" not in text


def test_validate_transition_cli_rejects_an_unknown_state_as_usage_error(validate_cli):
    code, text = validate_cli("CREATED", "FINISHED")
    assert code == 2
    assert "FINISHED" in text and "Traceback" not in text


def test_the_gated_states_are_those_only_a_gate_pass_lets_a_task_into():
    # The commit guard and the audit of a note hold a task in one of these to a passing gate:
    # every legal way in must need one, and nothing else may count as gated.
    ways_in = {(a, b) for a in states.STATES for b in states.GATED_STATES if states.is_legal(a, b)}
    assert ways_in == set(states.NEEDS_GATE_PASS)
    assert {"CONVERGED", "DONE"} == states.GATED_STATES
