"""The finding lifecycle (seed §10, §21): a reviewer's claim becomes a bug only by a failing run.

PROPOSED → REPRODUCING → CONFIRMED | REJECTED; CONFIRMED → FIXING → FIXED → VERIFIED → CLOSED.
Each step needs a fact the harness recorded itself: a reproduction that failed (CONFIRMED),
an attempt that did not (REJECTED), a regression test that failed when attached (FIXING), a
passing regression run plus fresh full-suite evidence (VERIFIED).
"""

from __future__ import annotations

STATUSES = ("PROPOSED", "REPRODUCING", "CONFIRMED", "REJECTED", "FIXING", "FIXED", "VERIFIED", "CLOSED")
LEGAL = frozenset({
    ("PROPOSED", "REPRODUCING"), ("REPRODUCING", "CONFIRMED"), ("REPRODUCING", "REJECTED"),
    ("CONFIRMED", "FIXING"), ("FIXING", "FIXED"), ("FIXED", "VERIFIED"), ("VERIFIED", "CLOSED"),
})
CLOSED = frozenset({"REJECTED", "VERIFIED", "CLOSED"})  # no longer counted against the gate
EVER_CONFIRMED = frozenset({"CONFIRMED", "FIXING", "FIXED", "VERIFIED", "CLOSED"})

# What each step needs, said to the user when it is missing.
NEXT_STEP = {
    "PROPOSED": "harness finding reproduce {id} [-- COMMAND]",
    "REPRODUCING": "harness finding reproduce {id} (a failing run confirms) or harness finding reject {id} --reason …",
    "CONFIRMED": "harness finding regression {id} PATH -- COMMAND (a test that fails now)",
    "FIXING": "fix the code, then harness finding fixed {id}",
    "FIXED": "harness finding verify {id} (regression test passes + fresh full-suite evidence)",
    "VERIFIED": "harness finding close {id}",
}


def is_legal(current: str, target: str) -> bool:
    return (current, target) in LEGAL


def refusal(current: str, target: str, fid: str) -> str | None:
    """None when ``current → target`` is legal for a finding, else the message naming both."""
    if is_legal(current, target):
        return None
    hint = NEXT_STEP.get(current)
    text = f"INVALID FINDING TRANSITION: {fid} {current} → {target}"
    return text + (f" (next: {hint.format(id=fid)})" if hint else f" ({current} is final)")


def recommended_command(content: dict) -> str | None:
    """The reviewer's reproducer as the harness shows a run of it (shell-quoted argv)."""
    import shlex

    command = (content.get("recommended_reproducer") or {}).get("command")
    if not command:
        return None
    return shlex.join(command) if isinstance(command, list) else shlex.join(shlex.split(command))


def rejection_problem(f: dict) -> str | None:
    """Why ``f`` may not be rejected yet (None when it may).

    Only a run of the reviewer's own reproducer that did not fail refutes the claim: a
    passing `true` proves nothing about it.
    """
    recommended = recommended_command(f["content"])
    passing = [a for a in f["attempts"] if a["outcome"] == "passed"
               and (recommended is None or a["command"] == recommended)]
    if passing:
        return None
    if recommended:
        return f"rejecting needs a recorded run of the reviewer's reproducer `{recommended}` that did not fail"
    return "rejecting needs a recorded reproduction attempt that did not fail"


def refuted_on(f: dict, tree: str) -> bool:
    """A REJECTED finding still counts as refuted only where its reviewer's reproducer last
    passed: rejecting on one tree and gating another would let a bug through."""
    recommended = recommended_command(f["content"])
    runs = [a for a in f["attempts"] if recommended is None or a["command"] == recommended]
    return bool(runs) and runs[-1]["outcome"] == "passed" and runs[-1]["tree"] == tree


def rates(findings: list[dict]) -> dict:
    """Seed §29 metrics for one task: confirmation and regression capture rates (None when undefined)."""
    proposed = len(findings)
    confirmed = [f for f in findings if f["status"] in EVER_CONFIRMED]
    with_test = [f for f in confirmed if (f.get("regression_test") or {}).get("path")]
    return {
        "proposed": proposed, "confirmed": len(confirmed), "with_regression_test": len(with_test),
        "confirmation_rate": round(len(confirmed) / proposed, 3) if proposed else None,
        "regression_capture_rate": round(len(with_test) / len(confirmed), 3) if confirmed else None,
    }
