"""Under the pre-commit framework, `.pre-commit-config.yaml` is what runs the harness's hooks. The
tool guard denies an edit that leaves one out and a commit that would carry such a config; an
edit that keeps them (or drops only a manual-stage one, which never runs on a commit) is allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent.judge.framework_config import dropped, edited_text, patch_drops
from harness.agent.run import run

from support.cli import Harness
from support.gitrepo import git

CONFIG = """repos:
  - repo: https://example.invalid/harness
    rev: v1
    hooks:
      - id: harness-validate
      - id: harness-stamp
      - id: harness-push-guard
      - id: harness-gate
"""


def pre_tool_use(cwd: Path, tool_name: str, tool_input: dict) -> str | None:
    data = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_use_id": "toolu_01", "tool_name": tool_name,
            "tool_input": tool_input}
    reply = run("claude" if tool_name != "apply_patch" else "codex", "pre-tool-use", json.dumps(data))
    out = json.loads(reply.stdout) if reply.stdout else {}
    decision = out.get("hookSpecificOutput", {})
    return decision.get("permissionDecisionReason") if decision.get("permissionDecision") == "deny" else None


@pytest.fixture
def framework(h: Harness) -> Path:
    """A repository whose committed framework config runs the harness's hooks."""
    (h.root / ".pre-commit-config.yaml").write_text(CONFIG)
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "framework config")
    return h.root


def test_the_hooks_a_config_drops_are_named() -> None:
    assert dropped(CONFIG, CONFIG.replace("      - id: harness-validate\n", "")) == ["harness-validate"]
    assert dropped(CONFIG, CONFIG.replace("      - id: harness-gate\n", "")) == []  # manual stage
    assert dropped(CONFIG, CONFIG + "  - repo: local\n    hooks:\n      - id: flake8\n") == []
    assert dropped(None, "repos: []\n") == []
    assert patch_drops("@@\n-      - id: harness-stamp\n+      - id: flake8\n") == ["harness-stamp"]
    assert patch_drops("@@\n-      - id: harness-stamp\n+      - id: 'harness-stamp'\n") == []


def test_an_edit_tool_result_is_worked_out_from_the_file() -> None:
    assert edited_text("Write", {"content": "x"}, "y") == "x"
    assert edited_text("Edit", {"old_string": "a", "new_string": "b"}, "aa") == "ba"
    assert edited_text("Edit", {"old_string": "a", "new_string": "b", "replace_all": True}, "aa") == "bb"
    assert edited_text("MultiEdit", {"edits": [{"old_string": "a", "new_string": "b"},
                                               {"old_string": "b", "new_string": "c"}]}, "a") == "c"
    assert edited_text("NotebookEdit", {"new_source": "x"}, "y") is None


def test_an_edit_dropping_a_harness_hook_is_denied(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    reason = pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "      - id: harness-validate\n",
                                              "new_string": ""})
    assert reason is not None and "harness-validate" in reason and "Instead:" in reason
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": "repos: []\n"}) is not None
    patch = ("*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n-      - id: harness-stamp\n"
             "*** End Patch\n")
    assert pre_tool_use(framework, "apply_patch", {"command": patch}) is not None


def test_an_edit_keeping_the_harness_hooks_is_allowed(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": CONFIG + "# tidy\n"}) is None
    assert pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "      - id: harness-gate\n",
                                            "new_string": ""}) is None
    assert pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "rev: v1", "new_string": "rev: v2"}) \
        is None


def test_committing_a_config_without_a_harness_hook_is_denied(framework: Path) -> None:
    commit = {"command": "git commit -m 'tidy hooks'"}
    (framework / ".pre-commit-config.yaml").write_text(CONFIG.replace("      - id: harness-push-guard\n", ""))
    reason = pre_tool_use(framework, "Bash", commit)
    assert reason is not None and "harness-push-guard" in reason
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", commit) is not None
    assert pre_tool_use(framework, "Bash", {"command": "git commit --dry-run"}) is None
    assert pre_tool_use(framework, "Bash", {"command": "git status"}) is None


def test_committing_with_the_harness_hooks_kept_is_allowed(framework: Path) -> None:
    (framework / ".pre-commit-config.yaml").write_text(CONFIG.replace("rev: v1", "rev: v2"))
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", {"command": "git commit -m 'bump hooks'"}) is None
