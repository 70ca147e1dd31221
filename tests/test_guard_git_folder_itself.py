"""The git folder itself decides whether the hooks run: moving it away, linking another in its place, or writing
its config through a symlinked `.git` is refused (#25's task F-0022)."""

from __future__ import annotations

import os

import pytest

from support.agent_guard import guard_answer


@pytest.mark.parametrize("command", ["mv .git .store", "rm -rf .git", "ln -sfn /tmp/other .git"])
def test_the_git_folder_is_not_moved_removed_or_replaced(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny"


def test_a_symlinked_git_folder_s_config_is_guarded_by_its_name(h, task, repo):
    os.rename(repo / ".git", repo / ".store")
    (repo / ".git").symlink_to(".store")
    line = "[core]\n\thooksPath = /dev/null\n"
    assert guard_answer(repo, "Write", {"file_path": ".git/config", "content": line}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": "src/app.py", "content": "x = 1\n"}) == "allow"


@pytest.mark.parametrize("command", ["ls -la .git", "cat .git/HEAD", "cp -r .git /tmp/backup-of-git"])
def test_reading_or_copying_the_git_folder_is_allowed(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow"
