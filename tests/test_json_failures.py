"""A command asked for `--json` answers in JSON on stdout when it fails too: one document with the
error, its hint and the exit code, beside the usual message on stderr."""

from __future__ import annotations

import json

import pytest

from support.gitrepo import git


def _one_json(text: str) -> dict:
    doc = json.loads(text)  # exactly one document: json.loads refuses anything after it
    assert isinstance(doc, dict)
    return doc


@pytest.mark.parametrize("args", [("status", "--json"), ("task", "list", "--json"), ("metrics", "--json"),
                                  ("audit", "--json"), ("finding", "list", "--json"), ("gate", "--json")])
def test_outside_a_repository_the_failure_is_a_json_document(h, tmp_path, args):
    r = h(*args, cwd=tmp_path)
    assert r.code == 2 and "not inside a git work tree" in r.err
    doc = _one_json(r.out)
    assert doc["ok"] is False and doc["exit_code"] == 2 and "not inside a git work tree" in doc["error"]
    assert "git init" in doc["hint"]


def test_before_init_and_for_an_unknown_task_the_failure_is_a_json_document(h, repo, tmp_path):
    bare = tmp_path / "plain"
    bare.mkdir()
    git(bare, "init", "-q")
    assert _one_json(h("status", "--json", cwd=bare).out)["ok"] is False
    r = h("status", "--json", "--task", "TASK-20990101-000000")
    assert r.code == 2 and _one_json(r.out)["error"] == "no task TASK-20990101-000000"


@pytest.mark.parametrize("args,error,hint", [
    (("--task", "TASK-20990101-000000"), "no task TASK-20990101-000000", "known tasks"),
    ((), "no current task", "harness task new"),
])
def test_gate_with_no_task_to_judge_fails_as_status_does_not_as_a_verdict(h, repo, args, error, hint):
    """F-0363: no task chosen is not an invalid harness state: the gate's --json answers it with the error
    document every command gives, the message on stderr, not a verdict document."""
    r = h("gate", "--json", *args)
    assert r.code == 2
    doc = _one_json(r.out)
    assert doc == {"ok": False, "error": error, "hint": doc["hint"], "exit_code": 2}, doc
    assert hint in doc["hint"] and "verdict" not in doc
    assert f"harness: {error}" in r.err


def test_a_usage_error_with_json_is_a_json_document(h, repo):
    r = h("status", "--json", "--no-such-option")
    assert r.code == 2 and "No such option" in _one_json(r.out)["error"]


def test_a_refusal_with_json_is_a_json_document_with_its_exit_code(h, task):
    r = h("gate", "--json", "--advance")
    assert r.code == 1
    doc = _one_json(r.out)
    assert doc["exit_code"] == 1 and "--advance moves a task only from GATING" in doc["error"], doc
    assert doc["hint"].startswith("next: ")


def test_json_after_the_separator_belongs_to_the_command_run_not_to_the_harness(h, tmp_path):
    r = h("evidence", "build", "--", "tool", "--json", cwd=tmp_path)
    assert r.code == 2 and r.out == ""
