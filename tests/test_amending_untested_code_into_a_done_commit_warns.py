"""Amending untested code into a gated DONE commit warns at once that the push will refuse it."""

from __future__ import annotations

import pytest

from support.answer_project import configure, to_gating
from support.gitrepo import git


@pytest.fixture
def task(task_template, h) -> str:
    """conftest's ``task`` (a fresh current task), copied from this module's template."""
    return task_template.data["task"]


@pytest.mark.e2e  # real commits through the installed native hooks
def test_amending_untested_code_into_a_done_commit_warns_at_once(h, repo, task):
    configure(repo)
    h.ok("install")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    to_gating(h)
    h.ok("gate", "--advance")
    h.ok("transition", "DONE")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "gated done")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    git(repo, "add", "-A")
    p = git(repo, "commit", "-q", "--amend", "--no-edit")
    assert "WARNING: this commit will be refused at push" in p.stderr and "done-needs-gate-pass" in p.stderr
