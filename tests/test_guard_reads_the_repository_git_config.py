"""The tool guard judges a git command by the configuration it will run under: the aliases
every config file git reads here defines, and the folders git runs this repository's hooks
from (a linked worktree's, a configured core.hooksPath). Read by harness.gitio.guard_config,
handed to the pure judge as data; exercised through `harness hook agent` in real repositories."""

from __future__ import annotations

import json
import os
from pathlib import Path

from harness.agent.run import run
from harness.gitio.guard_config import aliases_from, hooks_dirs, start_config

from support.cli import Harness
from support.gitrepo import git


def aliases_and_hooks_path(root):
    """(alias -> expansion, core.hooksPath or None) as the guard reads them in ``root``."""
    return aliases_from(start_config(root))


def pre_tool_use(cwd: Path, **tool: object) -> str | None:
    """Claude's PreToolUse payload for ``tool``; the denial's reason, or None when allowed."""
    data = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_use_id": "toolu_01", **tool}
    reply = run("claude", "pre-tool-use", json.dumps(data))
    assert reply.code == 0
    out = json.loads(reply.stdout) if reply.stdout else {}
    decision = out.get("hookSpecificOutput", {})
    return decision.get("permissionDecisionReason") if decision.get("permissionDecision") == "deny" else None


def shell(cwd: Path, command: str) -> str | None:
    return pre_tool_use(cwd, tool_name="Bash", tool_input={"command": command})


def test_an_alias_of_the_repository_config_is_judged_as_what_it_runs(h: Harness) -> None:
    git(h.root, "config", "alias.ci", "commit --no-verify")
    git(h.root, "config", "alias.st", "status --short")
    reason = shell(h.root, "git ci -m done")
    assert reason is not None and "--no-verify" in reason and "Instead:" in reason
    assert shell(h.root, "git st") is None


def test_an_alias_of_the_global_config_is_read_too(h: Harness, tmp_path: Path, monkeypatch) -> None:
    global_config = tmp_path / "global.gitconfig"
    global_config.write_text("[alias]\n\tsave = \"!git commit -n\"\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    assert aliases_and_hooks_path(h.root)[0]["save"] == "!git commit -n"
    assert shell(h.root, "git save -m x") is not None


def test_disabling_a_hook_file_is_denied_and_reading_it_is_not(h: Harness) -> None:
    assert shell(h.root, "chmod -x .git/hooks/pre-commit") is not None
    assert shell(h.root, "rm -f .git/hooks/pre-push") is not None
    assert shell(h.root, "cat .git/hooks/pre-commit") is None
    assert pre_tool_use(h.root, tool_name="Write", tool_input={"file_path": str(h.root / ".git/hooks/pre-commit"),
                                                              "content": "exit 0\n"}) is not None


def test_a_linked_worktree_guards_the_hooks_of_its_common_git_dir(h: Harness, tmp_path: Path) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "harness", "--allow-empty")
    linked = tmp_path / "linked"
    git(h.root, "worktree", "add", "-q", str(linked))
    common_hooks = os.path.realpath(h.root / ".git" / "hooks")
    assert common_hooks in hooks_dirs(linked, None)
    assert shell(linked, f"chmod -x {common_hooks}/pre-commit") is not None
    assert shell(linked, "git commit -n -m x") is not None
    assert shell(linked, "git status") is None


def test_a_configured_hooks_path_is_guarded(h: Harness) -> None:
    git(h.root, "config", "core.hooksPath", ".githooks")
    aliases, hooks_path = aliases_and_hooks_path(h.root)
    assert hooks_path == ".githooks"
    assert os.path.realpath(h.root / ".githooks") in hooks_dirs(h.root, hooks_path)
    assert shell(h.root, "echo 'exit 0' > .githooks/pre-commit") is not None
    assert shell(h.root, "echo x > .github/notes.txt") is None


def test_a_repository_without_aliases_judges_commands_as_written(h: Harness) -> None:
    assert "ci" not in aliases_and_hooks_path(h.root)[0]
    assert shell(h.root, "git ci -n -m x") is None  # no such alias: git itself refuses `ci`
    assert shell(h.root, "git commit -n -m x") is not None
