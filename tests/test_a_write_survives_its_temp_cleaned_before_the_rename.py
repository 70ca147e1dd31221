"""Self-found F-0395: `git clean -fdX` does not wait for the store's lock, so it may remove a temp the store wrote
before its rename: the redo log's (a write of several files) or a single file's. The bytes are still in hand, so
the temp is written again and the write goes through; a temp that keeps going (something cleaning in a loop) is
refused with the cause named, and the old files are kept: never a raw OS error."""

from __future__ import annotations

import glob
import os

import pytest

from harness.errors import HarnessError
from harness.store import fsio


@pytest.fixture
def files(tmp_path):
    (tmp_path / "task").mkdir()
    (tmp_path / "local").mkdir()
    a, b = tmp_path / "task/a.yaml", tmp_path / "task/b.yaml"
    a.write_bytes(b"old a\n")
    b.write_bytes(b"old b\n")
    return a, b, tmp_path / "local/journal"


def cleaning(monkeypatch, pattern: str) -> list[str]:
    """Remove the temps matching ``pattern`` at the store's step between a temp's write and its rename (what
    `git clean -fdX` does to ignored files while a command writes)."""
    removed: list[str] = []

    def clean() -> None:
        for tmp in glob.glob(pattern):
            os.unlink(tmp)
            removed.append(tmp)

    monkeypatch.setattr(fsio, "step", clean)
    return removed


def test_the_redo_log_s_temp_removed_once_is_written_again(files, monkeypatch):
    a, b, journal = files
    removed = cleaning(monkeypatch, str(journal.parent / ".journal.*.tmp"))
    fsio.commit_files(journal, {a: b"new a\n", b: b"new b\n"})
    assert removed and (a.read_bytes(), b.read_bytes()) == (b"new a\n", b"new b\n")
    assert not journal.exists() and not glob.glob(str(journal.parent / ".journal.*"))


def test_a_single_file_s_temp_removed_once_is_written_again(files, monkeypatch):
    a, _, journal = files
    removed = cleaning(monkeypatch, str(a.parent / ".a.yaml.*.tmp"))
    fsio.commit_files(journal, {a: b"new a\n"})
    assert removed and a.read_bytes() == b"new a\n" and not glob.glob(str(a.parent / ".a.yaml.*"))


def test_a_temp_removed_every_time_is_refused_with_the_cause_and_nothing_written(files, monkeypatch):
    a, b, journal = files
    real = os.replace

    def racing(src, dst):  # a cleaner in a loop: the redo log's temp goes just before each rename
        if ".journal." in os.fspath(src):
            os.unlink(src)
        return real(src, dst)

    monkeypatch.setattr(os, "replace", racing)
    with pytest.raises(HarnessError) as caught:
        fsio.commit_files(journal, {a: b"new a\n", b: b"new b\n"})
    assert "removed while it was written" in caught.value.message and "git clean" in caught.value.hint
    assert (a.read_bytes(), b.read_bytes()) == (b"old a\n", b"old b\n") and not journal.exists()
    assert not glob.glob(str(a.parent / ".*.tmp")) and not glob.glob(str(journal.parent / ".*.tmp"))


def test_a_write_nothing_removes_is_as_before(files):
    a, b, journal = files
    fsio.commit_files(journal, {a: b"new a\n", b: b"new b\n"})
    assert (a.read_bytes(), b.read_bytes()) == (b"new a\n", b"new b\n") and not journal.exists()
