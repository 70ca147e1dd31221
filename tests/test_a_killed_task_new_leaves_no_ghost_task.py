"""F-0367: `harness task new` killed before its commit point (its temps written, the redo log not yet
renamed in) leaves `.harness/tasks/<ID>/` holding only temp files. That folder is no task: readers
ignore it, the next writer sweeps it under the lock, and a task folder that truly lacks its ledger is
refused with a remedy that works."""

from __future__ import annotations

import os

from harness.store import reader
from harness.store.source import FsSource

from support.records import tdir


def kill_task_new_before_its_commit_point(h, repo) -> str:
    """The id of the folder a `task new` killed at its first crash point (the redo log's write) left."""
    tasks = repo / ".harness" / "tasks"
    before = set(os.listdir(tasks)) if tasks.exists() else set()
    r = h.proc("task", "new", "never created", env={"HARNESS_KILL_AT_STEP": "1"})
    assert r.code == -9, r.text  # SIGKILLed by harness.store.crashpoint
    (ghost,) = set(os.listdir(tasks)) - before
    left = sorted(p.name for p in tdir(repo, ghost).iterdir())
    assert left and all(n.startswith(".") and n.endswith(".tmp") for n in left), left
    return ghost


def test_a_folder_of_temps_a_killed_task_new_left_is_no_task(h, repo):
    ghost = kill_task_new_before_its_commit_point(h, repo)
    assert not reader.is_task(FsSource(repo), ghost)
    r = h("status")
    assert r.code == 0, r.text  # as before the killed command: no task yet
    assert "No task yet" in r.out and "harness task new" in r.out, r.text
    assert "no ledger" not in r.text


def test_the_next_task_new_sweeps_the_ghost_and_every_reader_ignores_it(h, repo):
    ghost = kill_task_new_before_its_commit_point(h, repo)
    tid = h.ok("task", "new", "second").out.strip()
    assert not tdir(repo, ghost).exists()  # swept under the lock: no temp left in .harness/tasks
    listing = h.ok("task", "list").out
    assert tid in listing and ghost not in listing and "INVALID" not in listing
    h.ok("replay", "--all")
    h.ok("status")


def test_a_ghost_is_ignored_before_any_writer_sweeps_it(h, repo, task):
    ghost = kill_task_new_before_its_commit_point(h, repo)
    assert "INVALID" not in h.ok("task", "list").out
    h.ok("replay", "--all")
    h.ok("status")
    assert tdir(repo, ghost).exists()  # readers do not write: only a writer sweeps


def test_a_task_folder_with_its_ledger_and_a_leftover_temp_is_still_a_task(h, repo, task):
    # The legitimate neighbour: a killed append leaves a temp beside a real task's files.
    (tdir(repo, task) / ".task.yaml.0123abcd.tmp").write_bytes(b"half")
    assert reader.is_task(FsSource(repo), task)
    assert task in h.ok("task", "list").out
    assert h.ok("status").code == 0


def test_a_task_whose_ledger_is_missing_is_refused_with_a_remedy(h, repo, task):
    (tdir(repo, task) / "events.jsonl").unlink()
    r = h("status")
    assert r.code == 2, r.text
    assert f"{task} has no ledger" in r.err
    assert "git checkout" in r.err and f"rm -r .harness/tasks/{task}" in r.err, r.err
