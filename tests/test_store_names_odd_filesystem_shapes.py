"""A folder where the store keeps a file (or a file where it keeps a folder), and an OS error, are named in one line with the fix, never a traceback; a bug still raises."""

from __future__ import annotations

import json

import pytest
import yaml

from support.records import tdir


def no_traceback(r) -> None:
    assert "Traceback" not in r.text, r.text


def test_a_folder_in_place_of_task_yaml_is_named_and_leaves_no_journal(h, repo, task):
    path = tdir(repo, task) / "task.yaml"
    path.unlink()
    path.mkdir()
    r = h("replay", "--write")
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/task.yaml: cannot read a folder" in r.text
    no_traceback(r)
    assert not (repo / ".harness/local/journal").exists()
    assert list(tdir(repo, task).glob(".*.tmp")) == []
    path.rmdir()
    h.ok("replay", "--write")
    h.ok("replay")


def test_a_journal_promising_a_path_now_a_folder_says_how_to_finish(h, repo, task):
    from harness.store import fsio

    path = tdir(repo, task) / "task.yaml"
    journal = repo / ".harness/local/journal"
    tmp = fsio.write_temp(path, path.read_bytes().replace(b"title: Add resumable execution", b"title: promised"))
    journal.write_text(json.dumps([[str(tmp), str(path)]]))
    path.unlink()
    path.mkdir()
    for _ in range(2):  # every command says the same, and nothing promised is lost
        r = h("status")
        assert r.code == 2, r.text
        assert str(path) in r.text and f"mv {path} {path}.bak" in r.text and str(journal) in r.text
        no_traceback(r)
        assert journal.exists() and tmp.exists()
    path.rename(path.with_name("task.yaml.bak"))
    h.ok("status")
    assert not journal.exists()
    assert yaml.safe_load(path.read_text())["task"]["title"] == "promised"


def test_local_being_a_file_is_named(h, repo, task):
    local = repo / ".harness/local"
    for child in local.iterdir():
        child.unlink()
    local.rmdir()
    local.write_text("oops")
    for args in (("requirement", "add", "x", "--priority", "must"), ("replay",)):
        r = h(*args)
        assert r.code == 2, (args, r.text)
        assert f"{local} is not a folder" in r.text, r.text
        no_traceback(r)


def test_journal_being_a_folder_is_named_with_the_fix(h, repo, task):
    journal = repo / ".harness/local/journal"
    journal.mkdir()
    r = h("status")
    assert r.code == 2, r.text
    assert f"rm -r {journal}" in r.text
    no_traceback(r)
    journal.rmdir()
    h.ok("status")


def test_current_being_a_folder_is_named_by_task_switch(h, repo, task):
    current = repo / ".harness/local/current"
    current.unlink()
    current.mkdir()
    r = h("task", "switch", task)
    assert r.code == 2, r.text
    assert str(current) in r.text and "is a folder" in r.text
    no_traceback(r)
    assert [p.name for p in (repo / ".harness/local").glob(".*.tmp")] == []


def test_an_oserror_escaping_a_command_is_a_message_naming_the_path(h, repo, task, monkeypatch):
    from harness.store import fsio

    def denied(dest, data):
        raise PermissionError(13, "Permission denied", str(dest))

    monkeypatch.setattr(fsio, "write_temp", denied)
    r = h("requirement", "add", "x", "--priority", "must")
    assert r.code == 2, r.text
    assert "task.yaml: Permission denied" in r.err and r.err.startswith("harness: ")
    no_traceback(r)


def test_a_bug_still_raises(h, repo, task, monkeypatch):
    from harness.cli.main import main
    from harness.store import fsio

    def bug(dest, data):
        raise ValueError("a real bug")

    monkeypatch.setattr(fsio, "write_temp", bug)
    monkeypatch.chdir(repo)
    with pytest.raises(ValueError):
        main(["requirement", "add", "x", "--priority", "must"])
