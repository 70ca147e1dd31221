"""The source before a recorded run is measured in a thread while the recording loads its rules
(harness.evidence.record._Beside), after the caller's environment is accepted and before the store's lock is
taken (F-0057, F-0058): what that measurement raises is the recording's error, raised before anything is
written, and neither the thread nor a throw-away index outlives the command."""

from __future__ import annotations

import os
import threading

from harness.errors import HarnessError
from harness.gitio.worktree import Worktree

from support.records import events


def test_a_failed_before_measurement_is_the_recording_s_error_and_writes_nothing(h, repo, task, monkeypatch):
    before = events(repo, task)

    def failing(self, *_, **__):
        raise HarnessError("git add failed: the measurement broke")

    monkeypatch.setattr(Worktree, "_measured", failing)
    r = h("evidence", "custom", "--", "true")
    assert r.code != 0 and "the measurement broke" in r.err
    assert events(repo, task) == before
    assert threading.active_count() == 1
    assert not [p for p in os.listdir(repo / ".git") if p.startswith("harness-index.")]


def test_a_refused_environment_starts_no_measurement_and_leaves_nothing_behind(h, repo, task, monkeypatch):
    before = events(repo, task)
    monkeypatch.setenv("GIT_INDEX_FILE", str(repo / "elsewhere-index"))  # refused by ensure_recordable
    r = h("evidence", "custom", "--", "true")
    assert r.code != 0 and "GIT_INDEX_FILE" in r.err
    assert events(repo, task) == before
    assert threading.active_count() == 1
    assert not [p for p in os.listdir(repo / ".git") if p.startswith("harness-index.")]
