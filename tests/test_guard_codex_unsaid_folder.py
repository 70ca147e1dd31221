"""Codex does not tell the guard where a shell call runs (F-0375): its PreToolUse input carries the command and the
turn's cwd, never the call's `workdir` (openai/codex shell_command.rs pre_tool_use_payload). A line that would skip
the harness's hooks or touch its record is therefore judged as if it ran in the harness's repository: no
"outside any harness" or "nested repository" allowance for Codex. A plain commit and ordinary commands stay allowed."""

from __future__ import annotations

import json
from pathlib import Path

from harness.agent.run import run

from support.agent_guard import guard_answer
from support.gitrepo import git

LEDGER = ".harness/tasks/T/events.jsonl"


def _codex(cwd: Path, command: str) -> dict | None:
    """Codex's PreToolUse input for a shell call (shell_command / exec_command), answered in-process."""
    data = {"session_id": "0199a7c2-0000-7000-8000-000000000001", "turn_id": "1", "transcript_path": None,
            "cwd": str(cwd), "hook_event_name": "PreToolUse", "model": "gpt-5-codex", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"}
    reply = run("codex", "pre-tool-use", json.dumps(data))
    assert reply.code == 0
    return json.loads(reply.stdout) if reply.stdout else None


def _denied(out: dict | None) -> bool:
    return out is not None and out.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


def _reason(out: dict | None) -> str:
    assert _denied(out), out
    return out["hookSpecificOutput"]["permissionDecisionReason"]


def test_f0375_a_codex_bypass_from_the_folder_above_the_repository_is_denied(h, task, repo):
    above = repo.parent  # a user-scope install, Codex started here, the call's workdir `repo`
    for command in ("git commit --no-verify -m x", f"echo x >> {LEDGER}", "git config core.hooksPath /dev/null"):
        reason = _reason(_codex(above, command))
        assert "workdir" in reason, reason
    for command in ("git commit -m x", "ls -la", "make build", "git status"):
        assert not _denied(_codex(above, command)), command


def test_f0375_a_codex_bypass_from_a_nested_repository_is_denied(h, task, repo):
    git(repo, "init", "-q", "vendor/lib")
    lib = repo / "vendor" / "lib"
    for command in ("git commit --no-verify -m x", "git commit -n -m x", "git config core.hooksPath .githooks"):
        assert "workdir" in _reason(_codex(lib, command)), command  # its workdir may be `../..`
        assert guard_answer(lib, "Bash", {"command": command}) == "allow"  # Claude Code's Bash runs where it says
    for command in ("git commit -m x", "git log --oneline -3"):
        assert not _denied(_codex(lib, command)), command


def test_f0375_a_codex_line_from_a_subfolder_is_judged_at_the_repository_s_top_too(h, task, repo):
    (repo / "src").mkdir(exist_ok=True)
    assert _denied(_codex(repo / "src", f"echo x >> {LEDGER}"))  # its workdir may be `..`
    assert guard_answer(repo / "src", "Bash", {"command": f"echo x >> {LEDGER}"}) == "allow"  # src/.harness/…
    assert not _denied(_codex(repo / "src", "echo x >> notes.txt"))


def test_f0375_codex_away_from_any_harness_is_left_alone(repo, tmp_path):
    plain = tmp_path / "plain"
    git(tmp_path, "init", "-q", "plain")
    for command in ("git commit --no-verify -m x", "git commit -n -m x", "rm -rf build"):
        assert not _denied(_codex(plain, command)), command


def test_f0383_a_harness_repository_behind_a_symlinked_folder_is_found(h, task, repo, tmp_path):
    session = tmp_path / "home"
    session.mkdir()
    (session / "code").symlink_to(tmp_path, target_is_directory=True)  # ~/code -> a folder holding the repository
    (session / "loop").symlink_to(session, target_is_directory=True)   # a loop the walk must end
    reason = _reason(_codex(session, "git commit --no-verify -m x"))
    assert "workdir" in reason, reason


def test_f0383_a_harness_repository_under_a_folder_name_the_walk_skips_is_found(h, task, repo, tmp_path):
    import shutil

    session = tmp_path / "ws"
    shutil.copytree(repo, session / "target" / "repo", symlinks=True)  # a repository under `target`
    assert "workdir" in _reason(_codex(session, "git commit --no-verify -m x"))
    other = tmp_path / "ws2"
    shutil.copytree(repo, other / ".cache", symlinks=True)  # a repository that is itself named `.cache`
    assert "workdir" in _reason(_codex(other, "git commit --no-verify -m x"))


def test_f0383_an_unrelated_tree_with_links_and_skipped_folders_still_allows_a_plain_commit(tmp_path):
    plain = tmp_path / "plain"
    git(tmp_path, "init", "-q", "plain")
    (plain / "target" / "debug").mkdir(parents=True)
    (plain / "node_modules" / "pkg").mkdir(parents=True)
    (plain / "loop").symlink_to(plain, target_is_directory=True)
    (plain / "up").symlink_to(tmp_path, target_is_directory=True)
    for command in ("git commit --no-verify -m x", "git commit -m x", "rm -rf target"):
        assert not _denied(_codex(plain, command)), command
