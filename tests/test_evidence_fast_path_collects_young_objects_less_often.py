"""A recording answered before click raises the collector's threshold for young objects while it runs
(harness.cli.evidence_fast.GC_YOUNG: the modules it loads make objects it keeps, which collecting twenty
times over found nothing to free) and gives the caller's back however it ends; the collector still runs."""

from __future__ import annotations

import gc

import pytest

from harness.cli import evidence_fast


@pytest.mark.parametrize("outcome", ["returns", "raises"])
def test_the_threshold_is_raised_while_recording_and_given_back(monkeypatch, outcome):
    seen = []

    def record(etype, task_id, command):
        seen.append((gc.isenabled(), gc.get_threshold()))
        if outcome == "raises":
            raise KeyboardInterrupt
        return 0

    monkeypatch.setattr(evidence_fast, "_record", record)
    monkeypatch.setattr("harness.cli.main.failure_code", lambda exc, argv: 130)
    before = gc.get_threshold()
    code = evidence_fast.answer(["custom", "--", "true"])
    assert gc.get_threshold() == before
    assert code == (0 if outcome == "returns" else 130)
    assert seen == [(True, (evidence_fast.GC_YOUNG, *before[1:]))]


def test_the_threshold_stays_raised_when_the_process_ends_with_the_answer(monkeypatch):
    # Put back, the next allocation would scan every young object the recording made, in a process about to end.
    monkeypatch.setattr(evidence_fast, "_record", lambda etype, task_id, command: 0)
    monkeypatch.setattr("harness.cli.quick_exit.ends_with_the_answer", lambda: True)
    before = gc.get_threshold()
    try:
        assert evidence_fast.answer(["custom", "--", "true"]) == 0
        assert gc.get_threshold() == (evidence_fast.GC_YOUNG, *before[1:])
    finally:
        gc.set_threshold(*before)
