"""The guard reads the repository's git aliases and the framework config a commit would change by the
words a command line is made of, not by its raw text: `git comm''it`, `g''it cm` and an alias for commit
(`git ci`) are judged as `git commit` is (#28's task F-0033)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer
from support.gitrepo import commit_all_ok, git

FRAMEWORK = ("repos:\n- repo: local\n  hooks:\n  - id: harness-commit\n    name: h\n    entry: harness\n"
             "    language: system\n")


@pytest.fixture
def dropping(h, repo):
    """A commit whose staged framework config drops the harness hook; aliases ci = commit, cm = commit -n."""
    (repo / ".pre-commit-config.yaml").write_text(FRAMEWORK)
    commit_all_ok(repo, "framework")
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "config", "alias.ci", "commit")
    git(repo, "config", "alias.cm", "commit --no-verify")
    return repo


@pytest.mark.parametrize("command", ["git commit -m x", "git cm -m x", "git ci -m x", "git comm''it -m x",
                                     "g''it cm -m x", 'g"i"t ci -m x', "g\\it ci -m x"])
def test_a_commit_however_spelled_is_judged_with_the_repository_s_setup(dropping, command):
    assert guard_answer(dropping, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git status", "git ci --dry-run -m x", "echo git ci"])
def test_what_commits_nothing_is_still_allowed(dropping, command):
    assert guard_answer(dropping, "Bash", {"command": command}) == "allow", command
