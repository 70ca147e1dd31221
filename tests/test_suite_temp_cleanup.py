"""The suite's own housekeeping (the suite's plugin, support/plugin.py): as a run ends, the oldest temp run pytest keeps is
moved aside and deleted in the background, and a trash an interrupted delete left is swept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.processes import wait_for

# Tests of the suite's own plumbing (support/plugin.py): out of the inner loop, like the other runs
# of a whole tool (pyproject.toml's e2e marker).
pytestmark = pytest.mark.e2e

TESTS = Path(__file__).resolve().parent


def test_a_run_leaves_the_last_three_temp_runs_and_deletes_the_older_one_and_old_trash(tmp_path):
    user_root = tmp_path / "pytest-of-someone"
    for number in (1, 2, 3):
        files = user_root / f"pytest-{number}" / "test0"
        files.mkdir(parents=True)
        (files / "left.txt").write_text("from an earlier run")
    trash = user_root / ".trash-interrupted"
    (trash / "deep").mkdir(parents=True)
    env = {**os.environ, "PYTEST_DEBUG_TEMPROOT": str(tmp_path), "USER": "someone", "LOGNAME": "someone"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           str(TESTS / "test_state_machine.py"), "-k", "gated_states"],
                          cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wait_for(lambda: not (user_root / "pytest-1").exists() and not trash.exists(), within=20,
             what="pytest-1 and the old trash to be deleted")
    assert sorted(p.name for p in user_root.iterdir() if not p.is_symlink()) == ["pytest-2", "pytest-3", "pytest-4"]
    assert (user_root / "pytest-2" / "test0" / "left.txt").is_file()  # the runs pytest keeps are untouched


def test_a_run_given_its_own_temp_folder_touches_no_other(tmp_path):
    user_root = tmp_path / "pytest-of-someone"
    for number in (1, 2, 3, 4):  # pytest-1 would be the one to delete
        (user_root / f"pytest-{number}").mkdir(parents=True)
    env = {**os.environ, "PYTEST_DEBUG_TEMPROOT": str(tmp_path), "USER": "someone", "LOGNAME": "someone"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           f"--basetemp={tmp_path / 'own'}", str(TESTS / "test_state_machine.py"), "-k", "gated_states"],
                          cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in user_root.iterdir()) == ["pytest-1", "pytest-2", "pytest-3", "pytest-4"]



def _run_with_three_older(tmp_path: Path, lock: str | None) -> Path:
    """Runs a small pytest under a temp root holding pytest-1..3, pytest-1 with ``lock`` as the
    content of pytest's `.lock` (none when None); returns the root (pytest-1 is the one to delete)."""
    user_root = tmp_path / "pytest-of-someone"
    for number in (1, 2, 3):
        (user_root / f"pytest-{number}").mkdir(parents=True)
    if lock is not None:
        (user_root / "pytest-1" / ".lock").write_text(lock)
    (user_root / "pytest-1" / "in-use.txt").write_text("a run's file")
    env = {**os.environ, "PYTEST_DEBUG_TEMPROOT": str(tmp_path), "USER": "someone", "LOGNAME": "someone"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           str(TESTS / "test_state_machine.py"), "-k", "gated_states"],
                          cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return user_root


def test_a_run_still_going_beside_this_one_keeps_its_temp_folder(tmp_path):
    # pytest-1 is the oldest, but its lock names a live process: a run started before this one and
    # still going (the full suite as evidence while one test file runs). Deleting it would pull the
    # repositories out from under that run's tests.
    user_root = _run_with_three_older(tmp_path, str(os.getpid()))
    assert (user_root / "pytest-1" / "in-use.txt").is_file()
    assert not list(user_root.glob(".trash-*"))


def test_a_killed_run_whose_lock_names_a_dead_process_is_deleted_like_any_other(tmp_path):
    # A run killed by a timeout or Ctrl-C leaves pytest's lock behind; pytest would keep its folder
    # for three days and then delete it while someone waits.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    user_root = _run_with_three_older(tmp_path, str(dead.pid))
    wait_for(lambda: not (user_root / "pytest-1").exists() and not list(user_root.glob(".trash-*")), within=20,
             what="the killed run's folder to be deleted")


def test_a_lock_that_cannot_be_read_as_a_pid_leaves_the_folder_to_pytest(tmp_path):
    user_root = _run_with_three_older(tmp_path, "not a pid")
    assert (user_root / "pytest-1" / "in-use.txt").is_file()
