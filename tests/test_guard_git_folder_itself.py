"""The git folder itself decides whether the hooks run: moving it away, linking another in its place, or writing
its config through a symlinked `.git` is refused (#25's task F-0022)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def ask(cwd: Path, tool: str, tool_input: dict) -> str:
    call = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": tool_input}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"], cwd=cwd,
                       input=json.dumps(call), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return "deny" if '"deny"' in p.stdout else "allow"


@pytest.mark.parametrize("command", ["mv .git .store", "rm -rf .git", "ln -sfn /tmp/other .git"])
def test_the_git_folder_is_not_moved_removed_or_replaced(h, task, repo, command):
    assert ask(repo, "Bash", {"command": command}) == "deny"


def test_a_symlinked_git_folder_s_config_is_guarded_by_its_name(h, task, repo):
    os.rename(repo / ".git", repo / ".store")
    (repo / ".git").symlink_to(".store")
    line = "[core]\n\thooksPath = /dev/null\n"
    assert ask(repo, "Write", {"file_path": ".git/config", "content": line}) == "deny"
    assert ask(repo, "Write", {"file_path": "src/app.py", "content": "x = 1\n"}) == "allow"


@pytest.mark.parametrize("command", ["ls -la .git", "cat .git/HEAD", "cp -r .git /tmp/backup-of-git"])
def test_reading_or_copying_the_git_folder_is_allowed(h, task, repo, command):
    assert ask(repo, "Bash", {"command": command}) == "allow"
