"""The files that decide whether the harness's git hooks run are guarded whatever a tool call's text says: a
hooks folder core.hooksPath names (#25's task F-0019) and the user's own git config files (F-0021)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.gitrepo import git


def ask(repo: Path, tool: str, tool_input: dict) -> str:
    call = {"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": tool_input}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"], cwd=repo,
                       input=json.dumps(call), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return "deny" if '"deny"' in p.stdout else "allow"


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
    assert ask(husky, tool, tool_input) == "deny"


@pytest.mark.parametrize("tool,tool_input", [
    ("Write", {"file_path": "src/app.py", "content": "x = 1\n"}),
    ("Bash", {"command": "ls -la .husky"}),
    ("Bash", {"command": "echo done > build.log"}),
])
def test_beside_a_hooks_folder_the_work_goes_on(husky, tool, tool_input):
    assert ask(husky, tool, tool_input) == "allow"


def test_the_user_s_git_config_files_are_guarded(h, task, repo):
    home = Path(os.environ["HOME"])
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    line = "[core]\n\thooksPath = /dev/null\n"
    assert ask(repo, "Write", {"file_path": str(home / ".gitconfig"), "content": line}) == "deny"
    assert ask(repo, "Write", {"file_path": str(xdg / "git" / "config"), "content": line}) == "deny"
    assert ask(repo, "Bash", {"command": f"printf '{line!s}' >> {home / '.gitconfig'}"}) == "deny"
    assert ask(repo, "Bash", {"command": "printf '[core]\\n' >> ~/.gitconfig"}) == "deny"
    assert ask(repo, "Write", {"file_path": str(home / "notes.txt"), "content": "x"}) == "allow"
