"""When the guard cannot read a tool call (input of the wrong type), it judges what the call carries —
never the folder the session runs in: a project under ~/git/ is answered as one anywhere else."""

from __future__ import annotations

import json
import subprocess

import pytest

from harness.agent.run import run


@pytest.fixture
def project(tmp_path, h):
    folder = tmp_path / "git" / "harness-work" / "project"  # every word the guard looks for, in the path
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "init"], cwd=folder, check=True)
    return folder


def _answer(folder, tool_input) -> str:
    raw = json.dumps({"session_id": "s", "cwd": str(folder), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": tool_input})
    return run("claude", "pre-tool-use", raw).stdout


def test_a_call_naming_nothing_guarded_is_allowed_whatever_the_folder_is_called(project):
    out = _answer(project, ["ls -la"])
    assert '"deny"' not in out and "not an object" in out


def test_a_call_that_names_git_is_still_refused(project):
    assert '"deny"' in _answer(project, ["git commit -n -m x"])
