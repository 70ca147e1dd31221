"""The §29 rates as a pure function: known facts in, every numerator and denominator checked."""

from __future__ import annotations

from harness.core.metrics import DoneClaim, FindingFacts, TaskFacts, compute


# Events are placed by the commit that first carries them (its position in topological order),
# then by their seq in their own ledger: (position, seq).
def f(fid: str, status: str, file: str | None = "app.py", at: int | None = None, test: bool = False) -> FindingFacts:
    return FindingFacts(fid, status, file, None if at is None else (at, 5), test)


def t(tid: str, state: str, *, text: str = "", created: int = 1, done: int | None = None,
      changed: tuple[str, ...] = (), findings: tuple[FindingFacts, ...] = ()) -> TaskFacts:
    return TaskFacts(tid, state, text, (created, 1), None if done is None else (done, 9), frozenset(changed), findings)


def test_every_rate_with_its_numerator_and_denominator():
    tasks = [
        t("T-1", "DONE", done=2, changed=("app.py",)),
        t("T-2", "DONE", done=3, changed=("lib.py",)),
        t("T-3", "DONE", done=4, changed=("other.py",)),
        t("T-4", "ESCALATED"),
        t("T-5", "IMPLEMENTING", text="Fix what T-2 broke", created=5,
          findings=(f("F-0001", "CLOSED", "app.py", 6, test=True),
                    f("F-0002", "CONFIRMED", "x.py", 6),
                    f("F-0003", "REJECTED"), f("F-0004", "PROPOSED"))),
    ]
    claims = [DoneClaim("a" * 40, "T-1", True), DoneClaim("b" * 40, "T-2", True), DoneClaim("c" * 40, "T-3", True),
              DoneClaim("d" * 40, "T-9", False)]
    r = compute(tasks, claims)
    assert r["false_done"] == {"rate": 0.667, "numerator": 2, "denominator": 3,
                               "ids": ["T-1 (T-5 F-0001 confirmed on app.py)", "T-2 (reopened by T-5)"]}
    assert r["finding_confirmation"] == {"rate": 0.5, "numerator": 2, "denominator": 4,
                                         "ids": ["T-5 F-0001", "T-5 F-0002"]}
    assert r["regression_capture"] == {"rate": 0.5, "numerator": 1, "denominator": 2, "ids": ["T-5 F-0001"]}
    assert r["gate_bypass"] == {"rate": 0.25, "numerator": 1, "denominator": 4, "ids": ["dddddddddddd T-9"]}
    assert r["convergence"] == {"rate": 0.75, "numerator": 3, "denominator": 4, "ids": ["T-1", "T-2", "T-3"]}


def test_what_came_before_the_done_does_not_contradict_it():
    tasks = [
        t("T-1", "DONE", done=5, changed=("app.py",)),
        # named by a task created before T-1 finished; a finding confirmed before T-1 finished;
        # a later finding on a file T-1 never changed
        t("T-2", "IMPLEMENTING", text="after T-1", created=4,
          findings=(f("F-0001", "CONFIRMED", "app.py", 4),
                    f("F-0002", "CONFIRMED", "lib.py", 6))),
    ]
    r = compute(tasks, [])
    assert (r["false_done"]["numerator"], r["false_done"]["denominator"]) == (0, 1)


def test_a_rejected_finding_does_not_count_as_confirmed_and_empty_rates_are_none():
    r = compute([t("T-1", "REVIEWING", findings=(f("F-0001", "REJECTED"),))], [])
    assert r["finding_confirmation"]["numerator"] == 0 and r["finding_confirmation"]["denominator"] == 1
    assert r["regression_capture"] == {"rate": None, "numerator": 0, "denominator": 0, "ids": []}
    assert r["gate_bypass"]["rate"] is None and r["convergence"]["rate"] is None and r["false_done"]["rate"] is None
