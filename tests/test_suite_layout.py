"""How the suite runs (conftest.py): its repositories on a tmpfs when the machine has one to spare,
unless the caller chose a place; `-n` as worksteal with the end-to-end tests first, so that the
slowest start at once; and no test drives a real git hook without the e2e marker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import ram_temp_root

TESTS = Path(__file__).resolve().parent

# Loaded into a nested run with -p: what that run chose, as the tests it runs would see it.
PROBE = '''
import json, os

def pytest_collection_finish(session):
    items = [[item.nodeid, item.get_closest_marker("e2e") is not None] for item in session.items]
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump({"basetemp": str(session.config._tmp_path_factory.getbasetemp()),
                   "dist": session.config.getoption("dist", None),
                   "temproot_var": os.environ.get("PYTEST_DEBUG_TEMPROOT"), "items": items}, out)
'''


def _probe(tmp_path: Path, *args: str, **env: str) -> dict:
    """What a nested `pytest --collect-only` of this suite chose, under ``env`` (PYTEST_DEBUG_TEMPROOT
    unset unless given)."""
    (tmp_path / "suite_probe.py").write_text(PROBE)
    out = tmp_path / "probe.json"
    base = {k: v for k, v in os.environ.items() if k != "PYTEST_DEBUG_TEMPROOT"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                           "-p", "suite_probe", *args],
                          cwd=TESTS.parent, capture_output=True, text=True, timeout=120,
                          env={**base, "PYTHONPATH": str(tmp_path), "PROBE_OUT": str(out), **env})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(out.read_text())


def test_a_run_keeps_its_repositories_on_the_tmpfs_and_leaves_the_environment_as_it_found_it(tmp_path):
    probe = _probe(tmp_path, str(TESTS / "test_state_machine.py"))
    run = Path(probe["basetemp"])
    expected = ram_temp_root() or Path(tempfile.gettempdir())
    assert run.parent.parent == expected.resolve(), (run, expected)
    assert run.name.startswith("pytest-")
    assert probe["temproot_var"] is None  # nested runs and the commands tests start choose for themselves


def test_a_temp_root_the_caller_names_is_kept(tmp_path):
    (tmp_path / "mine").mkdir()
    probe = _probe(tmp_path, str(TESTS / "test_state_machine.py"), PYTEST_DEBUG_TEMPROOT=str(tmp_path / "mine"),
                   USER="someone", LOGNAME="someone")
    assert Path(probe["basetemp"]).parent == tmp_path / "mine" / "pytest-of-someone"
    assert probe["temproot_var"] == str(tmp_path / "mine")


def test_a_basetemp_the_caller_names_is_kept(tmp_path):
    probe = _probe(tmp_path, f"--basetemp={tmp_path / 'own'}", str(TESTS / "test_state_machine.py"))
    assert Path(probe["basetemp"]) == tmp_path / "own"


def test_the_tmpfs_is_taken_only_with_room_to_spare(tmp_path):
    assert ram_temp_root(tmp_path, min_free=1) == tmp_path
    assert ram_temp_root(tmp_path, min_free=1 << 62) is None  # a 64 MB /dev/shm in a container
    assert ram_temp_root(tmp_path / "absent", min_free=1) is None  # no /dev/shm: macOS
    (tmp_path / "file").write_text("")
    assert ram_temp_root(tmp_path / "file", min_free=1) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_tmpfs_this_user_cannot_write_is_not_taken(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    assert ram_temp_root(locked, min_free=1) is None


# Two files of the suite, the e2e one last: none of test_state_machine.py's tests is e2e, test_demo.py's one is.
FILES = [str(TESTS / "test_state_machine.py"), str(TESTS / "test_demo.py")]


def test_n_without_dist_steals_work_and_runs_the_end_to_end_tests_first_each_group_in_its_own_order(tmp_path):
    plain = _probe(tmp_path, *FILES)["items"]
    probe = _probe(tmp_path, "-p", "xdist", "-n", "2", *FILES)
    assert probe["dist"] == "worksteal"
    flags = [e2e for _, e2e in probe["items"]]
    first_other = flags.index(False)
    assert first_other > 0 and not any(flags[first_other:]), "every e2e test comes before every other test"
    assert probe["items"] == [i for i in plain if i[1]] + [i for i in plain if not i[1]]


@pytest.mark.parametrize("args", [[], ["-p", "xdist", "-n", "2", "--dist", "load"], ["-p", "xdist", "-n", "0"]],
                         ids=["no xdist", "dist given", "n 0"])
def test_otherwise_the_tests_run_in_pytests_own_order(tmp_path, args):
    # xdist's load hands each worker a run of consecutive tests: e2e first would give them all to one.
    probe = _probe(tmp_path, *args, *FILES)
    assert probe["dist"] in (None, "no", "load")
    flags = [e2e for _, e2e in probe["items"]]
    assert flags.index(True) > flags.index(False), "the e2e test stays where the command line put its file"


# A module for a nested run that loads this suite's conftest.py as a plugin: three tests that make a
# commit in a repository with a hook, or run the hook's program themselves.
HOOK_TESTS = '''
import subprocess
import pytest


def repo_with_hook(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\\nexit 0\\n")
    hook.chmod(0o755)
    return tmp_path


def commit(repo):
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=repo, check=True)


def test_unmarked_commit(tmp_path):
    commit(repo_with_hook(tmp_path))


@pytest.mark.e2e
def test_marked_commit(tmp_path):
    commit(repo_with_hook(tmp_path))


def test_unmarked_program(tmp_path):
    repo = repo_with_hook(tmp_path)
    subprocess.run([str(repo / ".git" / "hooks" / "pre-commit")], check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "--no-verify", "-m", "x"], cwd=repo, check=True)
'''


def test_a_test_that_drives_a_real_git_hook_must_be_marked_e2e(tmp_path):
    (tmp_path / "test_hooks.py").write_text(HOOK_TESTS)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-p", "conftest",
                           "-c", str(TESTS.parent / "pyproject.toml"), "--rootdir", str(tmp_path),
                           f"--basetemp={tmp_path / 'temp'}", str(tmp_path / "test_hooks.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(TESTS)})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ERROR test_hooks.py::test_unmarked_commit" in proc.stdout
    assert "this test drives real git hooks (pre-commit) without @pytest.mark.e2e" in proc.stdout
    assert "PASSED test_hooks.py::test_marked_commit" in proc.stdout
    assert "PASSED test_hooks.py::test_unmarked_program" in proc.stdout
    assert "3 passed, 1 error" in proc.stdout
