"""F-0368: a redo log left by a write killed after its commit point is rolled forward only onto the files it
was computed from. When its destinations changed since (a branch switch, a reset, a pull), it is dropped with
its temps and the command says so; the checked-out branch's committed ledger stays as it is. A crash at any
step of an untouched write still ends with the old files or the new ones."""

from __future__ import annotations

import os

import pytest

from harness.errors import HarnessError
from harness.store import fsio

from support.gitrepo import git
from support.records import crash_after_the_commit_point, ledger_bytes, tdir

NOT_APPLIED = "an interrupted write was not applied: its files changed since"


def roll_forward_said(journal) -> str:
    """What rolling ``journal`` forward had to say (the store never prints: it raises what the front end says)."""
    try:
        fsio.roll_forward(journal)
    except HarnessError as exc:
        return exc.message
    return ""


def temps(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def test_a_redo_log_left_on_one_branch_is_not_rolled_onto_another(h, repo, task, monkeypatch):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task")
    git(repo, "checkout", "-qb", "newer")
    h.ok("requirement", "add", "r1", "--priority", "must")
    h.ok("requirement", "add", "r2", "--priority", "must")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "newer")
    committed = ledger_bytes(repo, task)
    git(repo, "checkout", "-q", "-")
    with monkeypatch.context() as m:
        crash_after_the_commit_point(m)
        assert h("requirement", "add", "main-only", "--priority", "must").code == 130
    assert (repo / ".harness/local/journal").exists()
    assert git(repo, "status", "--porcelain").stdout == ""  # nothing renamed yet: git lets the user switch
    git(repo, "checkout", "-q", "newer")
    r = h("status")
    assert r.code == 0, r.text
    assert NOT_APPLIED in r.err, r.err
    assert ledger_bytes(repo, task) == committed
    assert git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored=no").stdout == ""
    assert not (repo / ".harness/local/journal").exists() and temps(tdir(repo, task)) == []
    h.ok("replay")
    assert "main-only" not in (tdir(repo, task) / "requirements.yaml").read_text()


def test_a_redo_log_is_dropped_when_one_destination_changed_since(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    with monkeypatch.context() as m:
        crash_after_the_commit_point(m)
        with pytest.raises(KeyboardInterrupt):
            fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    a.write_bytes(b"a from another branch\n")  # b still holds what the write was computed from
    assert NOT_APPLIED in roll_forward_said(journal)
    assert a.read_bytes() == b"a from another branch\n" and b.read_bytes() == b"b1\n"
    assert not journal.exists() and temps(tmp_path) == []
    assert fsio.roll_forward(journal) is False


def test_a_redo_log_is_dropped_when_a_new_destination_appeared_since(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    with monkeypatch.context() as m:
        crash_after_the_commit_point(m)
        with pytest.raises(KeyboardInterrupt):
            fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    b.write_bytes(b"checked out\n")  # absent when the write was computed, present now
    assert NOT_APPLIED in roll_forward_said(journal)
    assert not a.exists() and b.read_bytes() == b"checked out\n" and temps(tmp_path) == []


def test_a_write_cut_between_its_renames_is_still_finished(tmp_path, monkeypatch):
    # The legitimate neighbour: one destination renamed already (holds the new bytes), the other
    # still holds its old ones: that is the write's own progress, and it is finished.
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"a1\n", b: b"b1\n"})
    real, calls = os.replace, []

    def cut_after_the_first_file(src, dst):
        calls.append(dst)
        if len(calls) == 3:  # 1: the redo log's own rename, 2: the first file's, 3: the second's
            raise KeyboardInterrupt
        return real(src, dst)

    with monkeypatch.context() as m:
        m.setattr(os, "replace", cut_after_the_first_file)
        with pytest.raises(KeyboardInterrupt):
            fsio.commit_files(journal, {a: b"a2\n", b: b"b2\n"})
    assert journal.exists() and {a.read_bytes(), b.read_bytes()} in ({b"a2\n", b"b1\n"}, {b"a1\n", b"b2\n"})
    assert fsio.roll_forward(journal) is True
    assert a.read_bytes() == b"a2\n" and b.read_bytes() == b"b2\n"
    assert not journal.exists() and temps(tmp_path) == []


def test_a_redo_log_onto_untouched_files_is_rolled_forward_silently(h, repo, task, monkeypatch):
    with monkeypatch.context() as m:
        crash_after_the_commit_point(m)
        assert h("requirement", "add", "kept", "--priority", "must").code == 130
    r = h("status")
    assert r.code == 0 and NOT_APPLIED not in r.err, r.text
    assert "kept" in (tdir(repo, task) / "requirements.yaml").read_text()
    h.ok("replay")
