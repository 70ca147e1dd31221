"""A judged `git commit` asks git what it must know in two processes where it asked three: the framework
config as HEAD and the index hold it comes from one `git cat-file --batch` (exactly what the two `git show`s
printed), beside the one `git config` the aliases and hooks path come from; both start before the rules
load. A variable that makes git read other config files than the guard reads has git asked. Every answer
is the one it was."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness.agent import git_config_files
from harness.agent.run import run
from harness.gitio import guard_config, spawned_git
from harness.gitio.guard_config import FRAMEWORK_CONFIG, framework_configs

from support.gitrepo import git

HOOKS = "repos:\n- repo: local\n  hooks:\n  - id: harness-validate\n  - id: harness-push-guard\n"


def shown(repo: Path, name: str) -> str | None:
    proc = subprocess.run(["git", "show", name], cwd=repo, capture_output=True)
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None


def as_git_shows(repo: Path) -> tuple[str | None, str | None, str | None]:
    try:
        worktree: str | None = (repo / FRAMEWORK_CONFIG).read_text()
    except OSError:
        worktree = None
    return shown(repo, f"HEAD:{FRAMEWORK_CONFIG}"), shown(repo, f":{FRAMEWORK_CONFIG}"), worktree


def make(repo: Path, case: str) -> None:
    config = repo / FRAMEWORK_CONFIG
    if case == "no commit yet":
        return
    if case in ("in HEAD", "in HEAD, dropped from the index", "in HEAD, changed in the index", "a symlink"):
        if case == "a symlink":
            (repo / "target.yaml").write_text(HOOKS)
            config.symlink_to("target.yaml")
        else:
            config.write_text(HOOKS)
        git(repo, "add", "-A")
    if case == "a folder in HEAD":
        config.mkdir()
        (config / "inside").write_text("x\n")
        git(repo, "add", "-A")
    (repo / "code.txt").write_text("code\n")
    git(repo, "add", "code.txt")
    git(repo, "commit", "-q", "-m", "base")
    if case == "in the index only":
        config.write_text(HOOKS)
        git(repo, "add", FRAMEWORK_CONFIG)
    elif case == "in HEAD, dropped from the index":
        git(repo, "rm", "-q", "--cached", FRAMEWORK_CONFIG)
    elif case == "in HEAD, changed in the index":
        config.write_text("repos: []\n")
        git(repo, "add", FRAMEWORK_CONFIG)
        config.write_text("repos: [] # and the work tree differs\n")


CASES = ["no commit yet", "absent", "in HEAD", "in the index only", "in HEAD, dropped from the index",
         "in HEAD, changed in the index", "a folder in HEAD", "a symlink"]


@pytest.mark.parametrize("case", CASES)
def test_one_batch_reads_what_the_two_shows_printed(tmp_path, case):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    make(repo, case)
    assert framework_configs(repo) == as_git_shows(repo)


def test_an_unreadable_batch_answer_is_asked_of_git_show(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    make(repo, "in HEAD, changed in the index")
    monkeypatch.setattr(guard_config, "_batch_blobs", lambda out, count: None)
    assert framework_configs(repo) == as_git_shows(repo)


def test_git_given_a_standard_input_answers_as_subprocess_run(tmp_path):
    git(tmp_path, "init", "-q")
    lines = b"HEAD\n:absent\n"
    ran = subprocess.run(["git", "cat-file", "--batch"], cwd=tmp_path, input=lines, capture_output=True)
    assert spawned_git.start(str(tmp_path), "cat-file", "--batch", stdin=lines).result() == (ran.returncode,
                                                                                           ran.stdout)
    assert spawned_git.start(str(tmp_path / "absent"), "cat-file", "--batch", stdin=lines).result()[0] != 0


def judged(cwd: Path, command: str) -> str | None:
    data = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}}
    reply = run("claude", "pre-tool-use", json.dumps(data))
    out = json.loads(reply.stdout) if reply.stdout else {}
    return out.get("hookSpecificOutput", {}).get("permissionDecisionReason")


@pytest.fixture
def started(monkeypatch) -> list[tuple[str, ...]]:
    """The git commands the guard starts."""
    asked: list[tuple[str, ...]] = []
    real = spawned_git.start
    monkeypatch.setattr(spawned_git, "start", lambda root, *args, **kw: asked.append(args) or real(root, *args, **kw))
    return asked


def test_a_commit_is_judged_with_two_git_processes(h, started):
    reason = judged(h.root, "git add -A && git commit -n -m 'x'")
    assert reason is not None and "--no-verify" in reason
    assert sorted(started) == [("cat-file", "--batch"), ("config", "-z", "--get-regexp", guard_config.QUERY)]


def test_an_alias_is_read_from_git(h, started):
    git(h.root, "config", "alias.ci", "commit --no-verify")
    reason = judged(h.root, "git add -A && git ci -m 'x'")
    assert reason is not None and "--no-verify" in reason
    assert ("config", "-z", "--get-regexp", guard_config.QUERY) in started


def test_a_framework_config_dropped_from_a_commit_is_still_refused(h, started):
    (h.root / FRAMEWORK_CONFIG).write_text(HOOKS)
    git(h.root, "add", FRAMEWORK_CONFIG)
    git(h.root, "commit", "-q", "-m", "hooks", "--no-verify")
    git(h.root, "rm", "-q", "--cached", FRAMEWORK_CONFIG)
    reason = judged(h.root, "git commit -m 'x'")
    assert reason is not None and "harness-validate" in reason
    assert judged(h.root, "git status") is None


def test_a_config_that_may_set_the_hooks_path_is_read_up_front(h, started):
    git(h.root, "config", "core.hooksPath", ".githooks")
    assert judged(h.root, "git commit -m x && echo x > .githooks/pre-commit") is not None
    assert ("config", "-z", "--get-regexp", guard_config.QUERY) in started


@pytest.mark.parametrize("variable", ["GIT_CONFIG", "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_KEY_0"])
def test_a_variable_that_moves_git_s_config_has_git_asked(tmp_path, monkeypatch, variable):
    git(tmp_path, "init", "-q")
    assert not git_config_files.may_set_hooks_path(str(tmp_path), {})
    assert git_config_files.may_set_hooks_path(str(tmp_path), {variable: str(tmp_path / "elsewhere")})
    monkeypatch.setenv(variable, os.fspath(tmp_path / "elsewhere"))
    assert git_config_files.may_set_hooks_path(str(tmp_path))
