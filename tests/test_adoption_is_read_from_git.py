"""Where the harness was adopted, asked of git alone (harness.gitio.adoption): the earliest commit of a revision's
whole history that holds .harness/config.yaml; none on an unborn branch or a history without one; and a history git
cannot read is refused in words, never taken for "no adoption" (which would exempt every command)."""

from __future__ import annotations

import pytest

from harness.errors import HarnessError
from harness.gitio.adoption import first_holding

from support.gitrepo import commit_all_ok, git, head


def test_the_earliest_commit_holding_config_yaml_is_the_adoption(h, repo):
    assert first_holding(repo, "HEAD") is None  # the fixture's commits hold no .harness/ yet
    adoption = commit_all_ok(repo, "adopt")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    assert first_holding(repo, "HEAD") == adoption


def test_an_unborn_branch_has_no_adoption(h, repo):
    git(repo, "checkout", "-q", "--orphan", "nothing-yet")
    assert first_holding(repo, "HEAD") is None


def test_a_history_git_cannot_read_is_refused(h, repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    first = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    loose = repo / ".git" / "objects" / first[:2] / first[2:]
    loose.unlink()  # the first commit's object gone: a damaged clone
    with pytest.raises(HarnessError, match="cannot read the history"):
        first_holding(repo, "HEAD")
