"""A commit of one changed file is that file's atomic replacement (fsio.atomic_write: temp, fsync, rename,
the folder fsynced) without the redo log: the rename alone makes it one unit. Two files or more go
through the log, as before; a log still pending is never overtaken."""

from __future__ import annotations

import json
import os

import pytest

from harness.store import fsio


def _written(monkeypatch) -> list[str]:
    names: list[str] = []
    real = fsio.atomic_write
    monkeypatch.setattr(fsio, "atomic_write", lambda dest, data: (names.append(dest.name), real(dest, data))[1])
    return names


def test_one_changed_file_is_replaced_without_the_redo_log(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    fsio.commit_files(journal, {a: b"first a\n", b: b"b\n"})
    names = _written(monkeypatch)
    fsio.commit_files(journal, {a: b"second a\n", b: b"b\n"})  # b holds its bytes already
    assert names == ["a.jsonl"]
    assert a.read_bytes() == b"second a\n" and not journal.exists()
    assert not [p for p in os.listdir(a.parent) if p.endswith(".tmp")]


def test_two_changed_files_go_through_the_redo_log(tmp_path, monkeypatch):
    journal, a, b = tmp_path / "local/journal", tmp_path / "t/a.jsonl", tmp_path / "t/b.yaml"
    names = _written(monkeypatch)
    fsio.commit_files(journal, {a: b"a\n", b: b"b\n"})
    assert names == ["journal"] and a.read_bytes() == b"a\n" and b.read_bytes() == b"b\n"


def test_a_one_file_write_interrupted_before_its_rename_leaves_the_old_file(tmp_path, monkeypatch):
    journal, a = tmp_path / "local/journal", tmp_path / "t/a.jsonl"
    fsio.commit_files(journal, {a: b"old\n"})

    def cut(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(KeyboardInterrupt):
        fsio.commit_files(journal, {a: b"new\n"})
    monkeypatch.undo()
    assert a.read_bytes() == b"old\n" and not journal.exists()
    fsio.sweep_temps(a.parent)
    assert os.listdir(a.parent) == ["a.jsonl"]


def test_a_pending_redo_log_is_not_overtaken_by_a_one_file_write(tmp_path, monkeypatch):
    journal, a = tmp_path / "local/journal", tmp_path / "t/a.jsonl"
    fsio.commit_files(journal, {a: b"old\n"})
    journal.parent.mkdir(exist_ok=True)
    journal.write_text(json.dumps([]), "utf-8")  # a log an interrupted writer left (rolled forward first)
    names = _written(monkeypatch)
    fsio.commit_files(journal, {a: b"new\n"})
    assert names == ["journal"] and a.read_bytes() == b"new\n"
