"""The guard protects the harness's repository wherever the agent's session runs: from a folder holding a `.git`
entry that is no repository, from a repository nested inside, or from outside with an absolute path
(#25's task F-0020)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.gitrepo import git


def ask(cwd: Path, tool: str, tool_input: dict) -> str:
    call = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": tool_input}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"], cwd=cwd,
                       input=json.dumps(call), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return "deny" if '"deny"' in p.stdout else "allow"


def test_a_folder_with_a_fake_git_entry_does_not_hide_the_repository_around_it(h, task, repo):
    (repo / "sub").mkdir()
    (repo / "sub" / ".git").write_text("")  # an empty file: no repository
    assert ask(repo / "sub", "Write", {"file_path": "../.harness/approvals.jsonl", "content": "x"}) == "deny"
    assert ask(repo / "sub", "Bash", {"command": "rm -rf ../.harness"}) == "deny"
    assert ask(repo / "sub", "Write", {"file_path": "notes.md", "content": "x"}) == "allow"


def test_a_repository_nested_inside_does_not_hide_the_one_around_it(h, task, repo):
    git(repo, "init", "-q", "vendor/lib")
    assert ask(repo / "vendor" / "lib", "Write", {"file_path": "../../.harness/approvals.jsonl", "content": "x"}) == "deny"
    assert ask(repo / "vendor" / "lib", "Write", {"file_path": "src.py", "content": "x"}) == "allow"


def test_an_absolute_path_into_the_record_from_outside_is_refused(h, task, repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert ask(outside, "Write", {"file_path": str(repo / ".harness" / "approvals.jsonl"), "content": "x"}) == "deny"
    assert ask(outside, "Write", {"file_path": str(outside / "notes.md"), "content": "x"}) == "allow"
