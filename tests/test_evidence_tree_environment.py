"""The tree evidence records is the tree its command saw: git's location variables and
core.worktree cannot make the record say one tree while the command tested another."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from support.gitrepo import git

PY = sys.executable
PASS = (PY, "-c", "pass")


def _other_checkout(repo: Path, tmp_path: Path) -> Path:
    """A second clone whose code differs: the tree an attacker would have tested."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    (other / "app.py").write_text("def answer():\n    return 41\n")
    return other


def _no_evidence(repo: Path, tid: str) -> bool:
    return not (repo / ".harness/tasks" / tid / "evidence/unit_test.json").exists()


@pytest.mark.parametrize("var", ["GIT_WORK_TREE", "GIT_DIR", "GIT_INDEX_FILE"])
def test_evidence_is_refused_when_the_environment_points_git_at_another_tree(h, repo, task, tmp_path,
                                                                             monkeypatch, var):
    other = _other_checkout(repo, tmp_path)
    target = {"GIT_WORK_TREE": other, "GIT_DIR": other / ".git", "GIT_INDEX_FILE": other / ".git/index"}[var]
    monkeypatch.setenv(var, str(target))
    r = h("evidence", "unit_test", "--", *PASS)
    assert r.code == 1, r.text
    assert var in r.text and "not recording" in r.text
    assert _no_evidence(repo, task)


def test_evidence_is_refused_when_core_worktree_points_elsewhere(h, repo, task, tmp_path):
    other = _other_checkout(repo, tmp_path)
    git(repo, "config", "core.worktree", str(other))
    r = h("evidence", "unit_test", "--", *PASS)
    assert r.code == 1, r.text
    assert "core.worktree" in r.text
    assert _no_evidence(repo, task)


def test_finding_reproducer_is_refused_under_a_foreign_work_tree(h, repo, task, tmp_path, monkeypatch):
    (repo / "f.yaml").write_text(json.dumps({
        "severity": "minor", "category": "logic", "title": "t", "claim": "c", "location": {"file": "app.py"},
        "failure_scenario": ["x"], "expected_behavior": "y",
        "recommended_reproducer": {"type": "unit_test", "description": "d", "command": [PY, "-c", "pass"]}}))
    h.ok("finding", "propose", "--file", "f.yaml")
    monkeypatch.setenv("GIT_WORK_TREE", str(_other_checkout(repo, tmp_path)))
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 1 and "GIT_WORK_TREE" in r.text
    monkeypatch.delenv("GIT_WORK_TREE")
    assert h("finding", "list").out.split()[1] == "PROPOSED"


def test_git_variables_naming_this_very_repository_are_accepted(h, repo, task, monkeypatch):
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(repo))
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/index")
    r = h("evidence", "unit_test", "--", *PASS)
    assert r.code == 0, r.text


def test_measured_tree_ignores_a_stray_index_of_the_callers_making(h, repo, task, monkeypatch):
    # The tree is measured in a throw-away index of the harness's own; a GIT_INDEX_FILE the
    # caller set (here the repository's own) changes nothing about what is measured.
    from harness.gitio.git import Git

    before = Git(repo).worktree_source_tree()
    stray = repo / ".git/other-index"
    shutil.copy(repo / ".git/index", stray)
    monkeypatch.setenv("GIT_INDEX_FILE", str(stray))
    (repo / "new.py").write_text("x = 1\n")
    after = Git(repo).worktree_source_tree()
    assert after != before  # the new file counts, whatever index the caller named
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert Git(repo).worktree_source_tree() == after
