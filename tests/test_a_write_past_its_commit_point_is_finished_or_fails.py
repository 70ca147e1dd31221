"""F-0381: a write past its commit point (its redo log in place) is finished by the process that made it from
the temps and bytes it holds, not from the log read back from disk: `git clean -fdX` does not wait for the
store's lock, and removing the log (in the ignored `.harness/local/`) or the temps (ignored `.*.tmp`) between
the commit point and the renames must not let the command exit 0 with its write not done. Either the write is
finished whole, or the command fails saying so. The log on disk stays for a crash alone."""

from __future__ import annotations

import os

import pytest

from harness.errors import HarnessError
from harness.store import fsio

from support.gitrepo import git
from support.records import events, tdir

NOT_FINISHED = "was not finished"


def statements(repo, task) -> list[str]:
    return [e["data"]["statement"] for e in events(repo, task) if e["type"] == "requirement.added"]


def temps(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def after_the_commit_point(monkeypatch, then) -> list[str]:
    """Run ``then()`` once, right after the redo log is written (the commit point), before any rename: where a
    `git clean` running beside the command may strike. Returns the list it fills when it did."""
    real, done = fsio.atomic_write, []

    def atomic_write(dest, data):
        real(dest, data)
        if not done and dest.name == "journal":
            done.append(str(dest))
            then()

    monkeypatch.setattr(fsio, "atomic_write", atomic_write)
    return done


def test_git_clean_right_after_the_commit_point_loses_no_write(h, repo, task, monkeypatch):
    h.ok("requirement", "add", "before", "--priority", "must")
    journal = repo / ".harness/local/journal"
    with monkeypatch.context() as m:
        cleaned = after_the_commit_point(m, lambda: git(repo, "clean", "-fdXq"))
        r = h("requirement", "add", "during the clean", "--priority", "must")
    assert cleaned and not (repo / ".harness/local/lock").exists()  # the clean did remove the log and the lock
    assert r.code == 0, r.text
    assert statements(repo, task) == ["before", "during the clean"], r.text
    assert "during the clean" in (tdir(repo, task) / "requirements.yaml").read_text()
    assert not journal.exists() and temps(tdir(repo, task)) == []
    h.ok("replay")


def test_the_redo_log_removed_after_the_commit_point_is_not_needed(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    with monkeypatch.context() as m:
        cleaned = after_the_commit_point(m, journal.unlink)
        fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert cleaned
    assert a.read_bytes() == b"a2\n" and b.read_bytes() == b"b2\n"
    assert not journal.exists() and temps(tmp_path) == []


def put_back_then_removed(monkeypatch, times: int) -> list[str]:
    """Each temp removed right after it is written back, ``times`` times (a clean striking after the put back)."""
    real, removed = fsio._put_back, []

    def put_back(tmp, data):
        real(tmp, data)
        if removed.count(tmp) < times:
            removed.append(tmp)
            os.unlink(tmp)

    monkeypatch.setattr(fsio, "_put_back", put_back)
    return removed


def test_temps_removed_after_they_were_put_back_are_written_again(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    with monkeypatch.context() as m:
        removed = put_back_then_removed(m, times=1)
        fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert len(removed) == 2
    assert a.read_bytes() == b"a2\n" and b.read_bytes() == b"b2\n"
    assert not journal.exists() and temps(tmp_path) == []


def test_a_write_whose_temps_keep_vanishing_fails_saying_so(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    with monkeypatch.context() as m:
        put_back_then_removed(m, times=1000)
        with pytest.raises(HarnessError, match=NOT_FINISHED) as caught:
            fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert str(a) in caught.value.message and caught.value.hint
    assert a.read_bytes() == b"a1\n"  # never a torn file: the old bytes or the new


def test_a_command_whose_write_was_not_finished_does_not_exit_0(h, repo, task, monkeypatch):
    h.ok("requirement", "add", "before", "--priority", "must")
    with monkeypatch.context() as m:
        put_back_then_removed(m, times=1000)
        r = h("requirement", "add", "never finished", "--priority", "must")
    assert r.code != 0 and NOT_FINISHED in r.err, r.text
    assert "REQ-002" not in r.out, r.text


def test_a_write_nothing_cleans_is_finished_as_before(tmp_path):
    # The neighbour: no clean, no crash: the renames are done, the log and the temps are gone.
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert a.read_bytes() == b"a2\n" and b.read_bytes() == b"b2\n"
    assert not journal.exists() and temps(tmp_path) == []


def test_a_destination_replaced_after_the_commit_point_is_not_overwritten(tmp_path, monkeypatch):
    # F-0368's rule holds for the writer too: a file that changed since the write was computed is kept.
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    with monkeypatch.context() as m:
        after_the_commit_point(m, lambda: a.write_bytes(b"checked out\n"))
        with pytest.raises(fsio.NotApplied):
            fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert a.read_bytes() == b"checked out\n" and b.read_bytes() == b"b1\n"
    assert not journal.exists() and temps(tmp_path) == []
