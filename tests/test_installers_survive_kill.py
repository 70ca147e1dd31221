"""`harness install` / `uninstall` (client and --server) are transactions: killed (SIGKILL) at
every one of their steps in turn, the next run finishes or undoes the work, sweeps the
temporaries, and never takes a value it had set for the user's own. Proven byte-for-byte on
git config and the hooks folder."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.gitrepo import git

KILL = "HARNESS_KILL_AT_STEP"
USERS_HOOK = b"#!/bin/sh\necho the user's own hook\n"
# runs every file of pre-receive.d/, each given the same stdin (F-0419: else install refuses)
DISPATCHER = b'#!/bin/sh\ndata=$(cat)\nfor hook in "$0.d"/*; do printf "%s\\n" "$data" | "$hook" || exit $?; done\n'


def _state(git_dir: Path, hooks: Path) -> dict[str, bytes]:
    """Everything an installer may touch: git config, every file of the hooks folder (samples
    aside) and every file at the top of the git folder that is not git's own bookkeeping."""
    files = {f"hooks/{p.relative_to(hooks).as_posix()}": p.read_bytes() for p in sorted(hooks.rglob("*"))
             if p.is_file() and not p.name.endswith(".sample")}
    top = {p.name: b"" for p in git_dir.iterdir() if p.is_file() and p.name not in ("index", "COMMIT_EDITMSG",
                                                                                     "ORIG_HEAD", "description")}
    return {**files, **top, "config": (git_dir / "config").read_bytes()}


def _client(repo: Path) -> None:
    git(repo, "remote", "add", "origin", str(repo.parent / "nowhere.git"))
    git(repo, "config", "notes.rewriteMode", "concatenate")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_bytes(USERS_HOOK)
    hook.chmod(0o755)


def _killed(h, cwd: Path, step: int, *args: str) -> bool:
    """Run the command set to die at its ``step``-th step; False once it has fewer steps."""
    r = h.proc(*args, cwd=cwd, env={KILL: str(step)})
    assert r.code in (0, -signal.SIGKILL), r.text
    return r.code == -signal.SIGKILL


def _every_kill(h, cwd: Path, args: tuple[str, ...], then: tuple[str, ...], expect: dict, state) -> int:
    """Kill ``args`` at step 1, 2, … until it runs through; after each kill ``then`` must reach
    ``expect`` (and leave no temporary or lock behind). The number of steps killed at."""
    step = 1
    while _killed(h, cwd, step, *args):
        r = h.proc(*then, cwd=cwd)
        assert r.code == 0, f"after a kill at step {step}: {r.text}"
        assert state() == expect, f"after a kill at step {step} of {args} and {then}"
        if then[0] == "install":
            h.proc(then[0].replace("install", "uninstall"), *then[1:], cwd=cwd)
        step += 1
    assert h.proc("uninstall", *args[1:], cwd=cwd).code == 0  # the run that went through, undone
    return step - 1


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_client_install_killed_at_any_step_is_finished_by_the_next_and_undone_exactly(h, repo):
    _client(repo)
    state = lambda: _state(repo / ".git", repo / ".git" / "hooks")  # noqa: E731
    before = state()
    h.ok("install")
    installed = state()
    assert h.proc("uninstall").code == 0 and state() == before
    rerun = _every_kill(h, repo, ("install",), ("install",), installed, state)
    assert state() == before
    undone = _every_kill(h, repo, ("install",), ("uninstall",), before, state)
    assert rerun == undone >= 10, "the loop must have killed the install at each of its steps"
    assert git(repo, "config", "notes.rewriteMode").stdout.strip() == "concatenate"


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_client_uninstall_killed_at_any_step_is_finished_by_the_next_run(h, repo):
    _client(repo)
    state = lambda: _state(repo / ".git", repo / ".git" / "hooks")  # noqa: E731
    before = state()
    h.ok("install")
    installed = state()
    steps = 1
    while True:
        assert h.proc("install").code == 0
        if not _killed(h, repo, steps, "uninstall"):
            break
        if steps % 2:  # the next uninstall finishes it; or the next install does, then installs afresh
            assert h.proc("uninstall").code == 0 and state() == before, f"uninstall killed at {steps}"
        else:
            assert h.proc("install").code == 0 and state() == installed, f"uninstall killed at {steps}"
        steps += 1
    assert steps > 8 and state() == before


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_server_install_killed_at_any_step_is_finished_or_undone_exactly(h, tmp_path):
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "config", "receive.fsckObjects", "false")
    (bare / "hooks" / "pre-receive").write_bytes(USERS_HOOK)
    state = lambda: _state(bare, bare / "hooks")  # noqa: E731
    before = state()
    assert h.proc("install", "--server", cwd=bare).code == 0
    installed = state()
    assert h.proc("uninstall", "--server", cwd=bare).code == 0 and state() == before
    rerun = _every_kill(h, bare, ("install", "--server"), ("install", "--server"), installed, state)
    undone = _every_kill(h, bare, ("install", "--server"), ("uninstall", "--server"), before, state)
    assert rerun == undone >= 4
    assert git(bare, "config", "receive.fsckObjects").stdout.strip() == "false"


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_server_install_beside_a_dispatcher_killed_at_any_step_leaves_the_dispatcher_as_it_was(h, tmp_path):
    # F-0396: the shim goes into the folder the user's hook runs every file of; the hook itself is never moved.
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    (bare / "hooks" / "pre-receive").write_bytes(DISPATCHER)
    (bare / "hooks" / "pre-receive.d").mkdir()
    (bare / "hooks" / "pre-receive.d" / "gitea").write_bytes(USERS_HOOK)
    state = lambda: _state(bare, bare / "hooks")  # noqa: E731
    before = state()
    assert h.proc("install", "--server", cwd=bare).code == 0
    installed = state()
    assert installed["hooks/pre-receive"] == DISPATCHER and "hooks/pre-receive.d/harness" in installed
    assert h.proc("uninstall", "--server", cwd=bare).code == 0 and state() == before
    rerun = _every_kill(h, bare, ("install", "--server"), ("install", "--server"), installed, state)
    undone = _every_kill(h, bare, ("install", "--server"), ("uninstall", "--server"), before, state)
    assert rerun == undone >= 4 and state() == before


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_server_install_with_the_option_killed_over_one_without_it_gives_back_the_users_value(h, tmp_path):
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "config", "receive.denyNonFastForwards", "false")
    state = lambda: _state(bare, bare / "hooks")  # noqa: E731
    before = state()
    assert h.proc("install", "--server", cwd=bare).code == 0
    step = 1
    while _killed(h, bare, step, "install", "--server", "--allow-non-fast-forward"):
        assert h.proc("uninstall", "--server", cwd=bare).code == 0
        assert state() == before, f"killed at step {step}"
        assert h.proc("install", "--server", cwd=bare).code == 0
        step += 1
    assert step > 2
    assert git(bare, "config", "--get-all", "receive.denyNonFastForwards", check=False).stdout == "false\n"


def test_install_refuses_beside_a_config_lock_and_changes_nothing(h, repo):
    _client(repo)
    state = lambda: _state(repo / ".git", repo / ".git" / "hooks")  # noqa: E731
    lock = repo / ".git" / "config.lock"
    lock.write_bytes(b"")
    before = state()
    r = h("install")
    assert r.code != 0 and "config.lock exists" in r.err and "rm " in r.err, r.text
    assert state() == before
    lock.unlink()
    h.ok("install")  # the lock gone, the same command installs
    assert git(repo, "config", "notes.rewriteMode").stdout.strip() == "ignore"


def test_uninstall_sweeps_only_the_temporaries_of_its_own_files(h, repo):
    hooks = repo / ".git" / "hooks"
    h.ok("install")
    ours, theirs = hooks / ".pre-push.abc123.tmp", hooks / ".notes.tmp"
    ours.write_bytes(b"half a shim")
    theirs.write_bytes(b"the user's")
    h.ok("uninstall")
    assert not ours.exists() and theirs.read_bytes() == b"the user's"


@pytest.mark.slow  # an install and an uninstall run and killed at each of their steps
def test_install_and_uninstall_where_the_framework_runs_the_shim_as_legacy_killed_at_any_step(h, repo, tmp_path,
                                                                                             monkeypatch):
    # F-0410: `pre-commit install` kept the shim as pre-commit.legacy (out of date here), the user's hook the shim
    # chained at pre-commit.pre-harness. Install refreshes the shim in place; uninstall gives the framework the
    # user's hook as its legacy. Killed at any step, the next run reaches what an unkilled one does.
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    _client(repo)
    h.ok("install")
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, check=True, capture_output=True)
    hooks = repo / ".git" / "hooks"
    legacy = hooks / "pre-commit.legacy"
    legacy.write_text(legacy.read_text().replace(sys.executable, "/an/old/venv/bin/python"))
    state = lambda: _state(repo / ".git", hooks)  # noqa: E731
    framework_ran_it = tmp_path / "framework-ran-it.git"
    shutil.copytree(repo / ".git", framework_ran_it, symlinks=True)
    h.ok("install")
    installed = state()
    assert installed["hooks/pre-commit.pre-harness"] == USERS_HOOK
    assert installed["hooks/pre-commit.legacy"] == installed["hooks/pre-merge-commit"]
    h.ok("uninstall")
    uninstalled = state()
    assert uninstalled["hooks/pre-commit.legacy"] == USERS_HOOK and "hooks/pre-commit.pre-harness" not in uninstalled
    for command, expect in (("install", installed), ("uninstall", uninstalled)):
        step = 1
        while True:
            shutil.rmtree(repo / ".git")
            shutil.copytree(framework_ran_it, repo / ".git", symlinks=True)
            if command == "uninstall":
                h.ok("install")
            if not _killed(h, repo, step, command):
                break
            assert h.proc(command).code == 0 and state() == expect, f"{command} killed at step {step}"
            step += 1
        assert step > 2, f"{command} must have been killed at each of its steps"
