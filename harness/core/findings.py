"""The finding lifecycle: a reviewer's claim becomes a bug only by a failing run.

PROPOSED → REPRODUCING → CONFIRMED | REJECTED; CONFIRMED → FIXING → FIXED → VERIFIED → CLOSED;
FIXED | VERIFIED | CLOSED → CONFIRMED (reopened).
Each step needs a fact the harness recorded itself: a reproduction that failed (CONFIRMED),
an attempt that did not (REJECTED), a regression test that failed when attached (FIXING), a
passing regression run plus fresh full-suite evidence (VERIFIED), the reviewer's reproducer
failing again on later code (reopened: the fix did not hold, or was undone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

STATUSES = ("PROPOSED", "REPRODUCING", "CONFIRMED", "REJECTED", "FIXING", "FIXED", "VERIFIED", "CLOSED")
LEGAL = frozenset({
    ("PROPOSED", "REPRODUCING"), ("REPRODUCING", "CONFIRMED"), ("REPRODUCING", "REJECTED"),
    ("CONFIRMED", "FIXING"), ("FIXING", "FIXED"), ("FIXED", "VERIFIED"), ("VERIFIED", "CLOSED"),
    # Reopened: whatever a ledger says was fixed, a failing run of the reviewer's reproducer says otherwise.
    ("FIXED", "CONFIRMED"), ("VERIFIED", "CONFIRMED"), ("CLOSED", "CONFIRMED"),
})
CLOSED = frozenset({"REJECTED", "VERIFIED", "CLOSED"})  # no longer counted against the gate
EVER_CONFIRMED = frozenset({"CONFIRMED", "FIXING", "FIXED", "VERIFIED", "CLOSED"})

# What moves a finding on from each status, (command, why): the one table Next: and refusals take it from.
# FIXED is not here: `finding verify` needs fresh full-suite evidence first (next_step.finding_steps).
NEXT_STEP = {
    "PROPOSED": ("harness finding reproduce {id}", "{id} is a claim until the reviewer's reproducer runs "
                                                   "(reproduce-finding skill)"),
    "REPRODUCING": ("harness finding reproduce {id}", "a failing run of the reviewer's reproducer confirms {id}"),
    "CONFIRMED": ("harness finding regression {id} PATH -- COMMAND", "{id} is a confirmed bug: attach a regression "
                                                                     "test that fails now"),
    "FIXING": ("harness finding fixed {id}", "fix the code for {id}, then mark it fixed"),
    "VERIFIED": ("harness finding close {id}", "{id} is verified"),
}
REOPEN = ("{id} is CLOSED: only `harness finding reopen {id}` moves it, when its reviewer's reproducer fails again on "
          "the code")
FIXED_NEEDS = ("{id} is FIXED: `harness finding verify {id}` once its regression test passes and the full suite's "
               "evidence is fresh and passing on the fixed code")


def _hint(status: str, fid: str) -> str | None:
    """What moves a ``status`` finding on, as a refusal's hint (None when the status is final)."""
    if status == "FIXED":
        return FIXED_NEEDS.format(id=fid)
    if status == "CLOSED":
        return REOPEN.format(id=fid)
    step = NEXT_STEP.get(status)
    return f"{step[0]} — {step[1]}".format(id=fid) if step else None


# The statuses whose regression test `harness finding regression` may replace. Past FIXING the fix is in
# the code, so the new test must fail on a commit before it (--failing-at) and pass now.
REPLACEABLE = ("FIXING", "FIXED", "VERIFIED", "CLOSED")
FIX_CLAIMED = ("FIXED", "VERIFIED", "CLOSED")

# Each finding event: the status it leads to, what the user asked for, and the statuses it may start from.
STEPS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "finding.reproduced": ("REPRODUCING", "reproduce", ("PROPOSED", "REPRODUCING", "REJECTED")),
    "finding.rejected": ("REJECTED", "reject", ("REPRODUCING",)),
    "finding.regression": ("FIXING", "attach a regression test", ("CONFIRMED",)),
    # No status of its own: a regression test moved, renamed or rewritten keeps the finding where it is.
    "finding.regression_replaced": ("", "replace the regression test of", REPLACEABLE),
    "finding.regression_moved": ("", "move the regression test of", FIX_CLAIMED),
    "finding.fixed": ("FIXED", "mark fixed", ("FIXING",)),
    "finding.verified": ("VERIFIED", "verify", ("FIXED", "VERIFIED", "CLOSED")),  # CLOSED: re-run, stays CLOSED
    "finding.closed": ("CLOSED", "close", ("VERIFIED",)),
    "finding.reopened": ("CONFIRMED", "reopen", FIX_CLAIMED),
}


def step_refusal(f: Mapping[str, Any], event: str) -> tuple[str, str | None] | None:
    """(message, hint) when ``f``'s status does not allow ``event``, else None.

    The CLI asks this before it runs a reproducer; replay asks it of every event.
    """
    target, action, allowed = STEPS[event]
    if f["status"] in allowed:
        return None
    hint = _hint(f["status"], f["id"])
    move = f" → {target}" if target else ""
    return (f"INVALID FINDING TRANSITION: {f['id']} {f['status']}{move}: cannot {action} a "
            f"{f['status']} finding (needs {' or '.join(allowed)})", hint or f"{f['status']} is final")


def is_legal(current: str, target: str) -> bool:
    return (current, target) in LEGAL


def refusal(current: str, target: str, fid: str) -> str | None:
    """None when ``current → target`` is legal for a finding, else the message naming both."""
    if is_legal(current, target):
        return None
    hint = _hint(current, fid)
    text = f"INVALID FINDING TRANSITION: {fid} {current} → {target}"
    return text + (f" (next: {hint})" if hint else f" ({current} is final)")


def recommended_command(content: Mapping[str, Any]) -> str | None:
    """The reviewer's reproducer as the harness shows a run of it (shell-quoted argv)."""
    import shlex

    reproducer = content.get("recommended_reproducer")
    command = reproducer.get("command") if isinstance(reproducer, dict) else None
    if not command or not isinstance(command, (str, list)) or not all(isinstance(a, str) for a in command):
        return None
    try:
        return shlex.join(command) if isinstance(command, list) else shlex.join(shlex.split(command))
    except ValueError:
        return None  # "No closing quotation": refused when proposed (reproducer_problem), never run


NEEDS_REPRODUCER = ("critical", "major")
REPRODUCER_HINT = ("the reviewer's command that fails while the defect exists, as a list of arguments or a string "
                   "a shell can split; only a minor finding may come without one")


def reproducer_problem(content: Mapping[str, Any]) -> str | None:
    """Why a proposed finding is refused for its reviewer's reproducer (None if it is not): a
    command string no shell could split, whatever the severity, or none at all where one is needed.

    A critical or major finding blocks the gate, and only a run can settle it; without the
    reviewer's command, whatever passing command the implementer picks would refute it.
    """
    import shlex

    reproducer = content.get("recommended_reproducer")
    command = reproducer.get("command") if isinstance(reproducer, dict) else None
    if isinstance(command, str):
        try:
            shlex.split(command)
        except ValueError as exc:
            return (f"recommended_reproducer.command {command!r} cannot be split into arguments ({exc}): "
                    "close its quotes, or give it as a list of arguments")

    if content.get("severity") in NEEDS_REPRODUCER and not recommended_command(content):
        return (f"a {content.get('severity')} finding must carry its reviewer's reproducer command "
                "(recommended_reproducer.command): only a run of it can confirm or refute the claim")
    return None


def reproducer_shell_problem(content: Mapping[str, Any]) -> str | None:
    """Why a reproducer given as one string would not run as written: it has shell syntax, and
    reproducers run without a shell (`a && b` would be `a` with the arguments `&&` and `b`).
    Refused when proposed; a ledger that already holds one still replays."""
    from harness.core.shell_syntax import shell_syntax

    reproducer = content.get("recommended_reproducer")
    command = reproducer.get("command") if isinstance(reproducer, dict) else None
    found = shell_syntax(command) if isinstance(command, str) else None
    if not found:
        return None
    return (f"recommended_reproducer.command {command!r} has shell syntax ({found!r}); it runs without a shell: "
            f'give it as a list of arguments, e.g. ["sh", "-c", {command!r}]')


def rejection_problem(f: Mapping[str, Any]) -> str | None:
    """Why ``f`` may not be rejected yet (None when it may).

    Only a run of the reviewer's own reproducer that did not fail refutes the claim: a
    passing `true` proves nothing about it. A minor finding its reviewer gave no command
    has nothing to run: its rejection rests on the reason given, and on nothing else.
    """
    recommended = recommended_command(f["content"])
    if recommended is None:
        problem = reproducer_problem(f["content"])
        return problem  # None for a minor finding: rejected on its reason
    from harness.core.finding_binding import attempt_only

    passing = [a for a in f["attempts"] if a["outcome"] == "passed" and a["command"] == recommended]
    if any(attempt_only(f, a) is None for a in passing):
        return None
    needs = f"rejecting needs a recorded run of the reviewer's reproducer `{recommended}` that did not fail"
    # A pass on other code, or of an edited script, proves nothing about the claim as proposed.
    return f"{needs}; its last passing run does not count ({attempt_only(f, passing[-1])})" if passing else needs


def refuted_on(f: Mapping[str, Any], tree: str) -> bool:
    """A REJECTED finding still counts as refuted only where its reviewer's reproducer last
    passed: rejecting on one tree and gating another would let a bug through. (Without a
    reproducer — a minor finding — the rejection rests on its reason, on every tree.)"""
    recommended = recommended_command(f["content"])
    if recommended is None:
        return reproducer_problem(f["content"]) is None
    from harness.core.finding_binding import recheck_changed

    # Any tree: a re-check of a rejection runs on the code gated now; but with the files it names as proposed
    # (a node id's tests as proposed, when only other cases of their file changed).
    runs = [a for a in f["attempts"] if a["command"] == recommended and not recheck_changed(f, a)]
    return bool(runs) and runs[-1]["outcome"] == "passed" and runs[-1]["tree"] == tree


def rates(findings: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Success measures for one task: confirmation and regression capture rates (None when undefined)."""
    proposed = len(findings)
    confirmed = [f for f in findings if f["status"] in EVER_CONFIRMED]
    with_test = [f for f in confirmed if (f.get("regression_test") or {}).get("path")]
    return {
        "proposed": proposed, "confirmed": len(confirmed), "with_regression_test": len(with_test),
        "confirmation_rate": round(len(confirmed) / proposed, 3) if proposed else None,
        "regression_capture_rate": round(len(with_test) / len(confirmed), 3) if confirmed else None,
    }
