"""The files that decide whether the harness's git hooks run are guarded whatever a tool call's text says: a
hooks folder core.hooksPath names (#25's task F-0019) and the user's own git config files (F-0021)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.agent_guard import guard_answer
from support.gitrepo import git


@pytest.fixture
def husky(h, task, repo):
    git(repo, "config", "core.hooksPath", ".husky")
    (repo / ".husky").mkdir()
    (repo / ".husky" / "pre-commit").write_text("#!/bin/sh\nharness hook run pre-commit\n")
    return repo


@pytest.mark.parametrize("tool,tool_input", [
    ("Write", {"file_path": ".husky/pre-commit", "content": "exit 0\n"}),
    ("Edit", {"file_path": ".husky/pre-commit", "old_string": "harness", "new_string": "true"}),
    ("Bash", {"command": "rm .husky/pre-commit"}),
    ("Bash", {"command": "echo exit 0 > .husky/pre-commit"}),
])
def test_a_hooks_folder_core_hooks_path_names_is_guarded_whatever_the_text_says(husky, tool, tool_input):
    assert guard_answer(husky, tool, tool_input) == "deny"


@pytest.mark.parametrize("tool,tool_input", [
    ("Write", {"file_path": "src/app.py", "content": "x = 1\n"}),
    ("Bash", {"command": "ls -la .husky"}),
    ("Bash", {"command": "echo done > build.log"}),
])
def test_beside_a_hooks_folder_the_work_goes_on(husky, tool, tool_input):
    assert guard_answer(husky, tool, tool_input) == "allow"


def test_the_user_s_git_config_files_are_guarded(h, task, repo):
    home = Path(os.environ["HOME"])
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    line = "[core]\n\thooksPath = /dev/null\n"
    assert guard_answer(repo, "Write", {"file_path": str(home / ".gitconfig"), "content": line}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": str(xdg / "git" / "config"), "content": line}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"printf '{line!s}' >> {home / '.gitconfig'}"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": "printf '[core]\\n' >> ~/.gitconfig"}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": str(home / "notes.txt"), "content": "x"}) == "allow"
