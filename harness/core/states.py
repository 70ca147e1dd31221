"""The task state machine: 13 states, 17 legal transitions, refusals as values.

Nothing here raises for an illegal request: :func:`check_transition` returns a
:class:`Refusal` the front end prints, so "IMPLEMENTING → DONE" can never slip through
as an unhandled exception path.
"""

from __future__ import annotations

from harness.core.value_class import dataclass

STATES = (
    "CREATED", "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING",
    "REPRODUCING", "FIXING", "GATING", "BLOCKED", "CONVERGED", "DONE", "ESCALATED",
)
TERMINAL = frozenset({"DONE", "ESCALATED"})

LEGAL = frozenset({
    ("CREATED", "SPECIFYING"), ("SPECIFYING", "PLANNED"), ("PLANNED", "IMPLEMENTING"),
    ("IMPLEMENTING", "VERIFYING"), ("VERIFYING", "IMPLEMENTING"), ("VERIFYING", "REVIEWING"),
    ("REVIEWING", "REPRODUCING"), ("REVIEWING", "GATING"), ("REPRODUCING", "REVIEWING"),
    ("REPRODUCING", "FIXING"), ("FIXING", "VERIFYING"), ("GATING", "BLOCKED"),
    ("GATING", "CONVERGED"), ("BLOCKED", "IMPLEMENTING"), ("BLOCKED", "REPRODUCING"),
    ("BLOCKED", "ESCALATED"), ("CONVERGED", "DONE"),
})

ESCALATION_CODES = (
    "SPEC_AMBIGUITY", "ARCHITECTURE_DEFECT", "REPEATED_REGRESSION",
    "UNSTABLE_TEST", "REVIEW_DISAGREEMENT", "MAX_ITERATIONS",
)

# Entering these needs a gate PASS that judged exactly the current source tree.
NEEDS_GATE_PASS = frozenset({("GATING", "CONVERGED"), ("CONVERGED", "DONE")})
# The states only those transitions reach: a task in one was let in by a passing gate, which the
# commit guard and the audit of a note hold it to.
GATED_STATES = frozenset(target for _, target in NEEDS_GATE_PASS)


@dataclass(frozen=True)
class Refusal:
    message: str
    hint: str | None = None


@dataclass(frozen=True)
class Allowed:
    iteration: int  # the task's iteration after the transition


@dataclass(frozen=True)
class TransitionContext:
    """What beyond the two state names a transition may depend on."""

    iteration: int = 0
    max_iterations: int = 5
    reason: str | None = None
    # True when the latest gate judgement is a PASS for the current source tree and
    # policy, with nothing that feeds the gate changed since (see core.ledger).
    gate_pass_current: bool = False
    gate_pass_detail: str = "no gate evaluation recorded"


def arrow(current: str, target: str) -> str:
    return f"{current} → {target}"


def invalid(current: str, target: str, why: str | None = None, hint: str | None = None) -> Refusal:
    text = f"INVALID TRANSITION: {arrow(current, target)}"
    return Refusal(f"{text} ({why})" if why else text, hint)


def is_legal(current: str, target: str) -> bool:
    """The bare table check of the 17 legal transitions (validate-transition)."""
    return (current, target) in LEGAL


def legal_targets(current: str) -> list[str]:
    return [t for t in STATES if (current, t) in LEGAL]


def escalation_code(reason: str | None) -> str | None:
    """The reason code an ESCALATED reason starts with, e.g. ``"SPEC_AMBIGUITY: ..."``."""
    words = (reason or "").replace(":", " ").split()
    return words[0] if words and words[0] in ESCALATION_CODES else None


def check_transition(current: str, target: str, ctx: TransitionContext) -> Allowed | Refusal:
    for name in (current, target):
        if name not in STATES:
            return Refusal(f"unknown state {name!r}; states are: {' '.join(STATES)}")
    if not is_legal(current, target):
        if current in TERMINAL:
            return invalid(current, target, f"{current} is terminal")
        options = ", ".join(legal_targets(current))
        return invalid(current, target, hint=f"from {current} the legal targets are: {options}")
    if current == "BLOCKED" and target != "ESCALATED" and ctx.iteration >= ctx.max_iterations:
        return invalid(
            current, target,
            f"iteration {ctx.iteration}/{ctx.max_iterations} reached max_iterations; only ESCALATED is allowed (LAW 6)",
            hint="harness transition ESCALATED --reason MAX_ITERATIONS",
        )
    if target == "ESCALATED" and escalation_code(ctx.reason) is None:
        return invalid(
            current, target, "ESCALATED needs a reason code",
            hint=f"--reason CODE[: detail], CODE one of {', '.join(ESCALATION_CODES)}",
        )
    if (current, target) in NEEDS_GATE_PASS and not ctx.gate_pass_current:
        return invalid(
            current, target, f"needs a gate PASS for the current source tree: {ctx.gate_pass_detail}",
            hint="collect fresh evidence, then run `harness gate`",
        )
    iteration = ctx.iteration + 1 if (current, target) == ("GATING", "BLOCKED") else ctx.iteration
    return Allowed(iteration=iteration)
