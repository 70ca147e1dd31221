"""How the suite runs (conftest.py): its repositories on a tmpfs when the machine has one to spare,
unless the caller chose a place; `-n` as worksteal, each worker's share opening with its part of
the end-to-end tests, so that the slowest start at once; and no test drives a real git hook
without the e2e marker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.environment import HOOKS_KEY, ram_temp_root
from support.scheduling import slow_first_in_each_share

# Tests of the suite's own plumbing (support/plugin.py): out of the inner loop, like the other runs
# of a whole tool (pyproject.toml's e2e marker).
pytestmark = pytest.mark.e2e

TESTS = Path(__file__).resolve().parent

# Loaded into a nested run with -p: what that run chose, as the tests it runs would see it.
PROBE = '''
import json, os

def pytest_collection_finish(session):
    from support.environment import ram_temp_root
    items = [[item.nodeid, item.get_closest_marker("e2e") is not None] for item in session.items]
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump({"basetemp": str(session.config._tmp_path_factory.getbasetemp()),
                   "dist": session.config.getoption("dist", None), "tmpfs": str(ram_temp_root()),
                   "workers": session.config.getoption("numprocesses", None),
                   "temproot_var": os.environ.get("PYTEST_DEBUG_TEMPROOT"), "items": items}, out)
'''
CHOOSERS = ("PYTEST_DEBUG_TEMPROOT", "TMPDIR", "HARNESS_TEST_TMPFS")


def _probe(tmp_path: Path, *args: str, **env: str) -> dict:
    """What a nested `pytest --collect-only` of this suite chose under ``env``: by default with
    tmp_path/shm as its tmpfs, and no other choice made, as user "someone" (so that the runs it
    makes and the trash it leaves stay under tmp_path)."""
    (tmp_path / "suite_probe.py").write_text(PROBE)
    (tmp_path / "shm").mkdir(exist_ok=True)
    out = tmp_path / "probe.json"
    base = {k: v for k, v in os.environ.items() if k not in CHOOSERS}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                           "-p", "suite_probe", *args],
                          cwd=TESTS.parent, capture_output=True, text=True, timeout=120,
                          env={**base, "PYTHONPATH": str(tmp_path), "PROBE_OUT": str(out), "USER": "someone",
                               "LOGNAME": "someone", "HARNESS_TEST_TMPFS": str(tmp_path / "shm"), **env})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(out.read_text())


def test_a_run_keeps_its_repositories_on_the_tmpfs_and_leaves_the_environment_as_it_found_it(tmp_path):
    if ram_temp_root(tmp_path) is None:
        pytest.skip("this machine has no 2 GiB of memory to spare")
    probe = _probe(tmp_path, str(TESTS / "test_state_machine.py"))
    assert probe["tmpfs"] == str(tmp_path / "shm")  # its own look at the memory left
    assert Path(probe["basetemp"]).parent == tmp_path / "shm" / "pytest-of-someone"
    assert probe["temproot_var"] is None  # nested runs and the commands tests start choose for themselves


@pytest.mark.parametrize("var", ["PYTEST_DEBUG_TEMPROOT", "TMPDIR"])
def test_a_temp_folder_the_caller_names_is_kept(tmp_path, var):
    (tmp_path / "mine").mkdir()
    probe = _probe(tmp_path, str(TESTS / "test_state_machine.py"), **{var: str(tmp_path / "mine")})
    assert Path(probe["basetemp"]).parent == tmp_path / "mine" / "pytest-of-someone"
    assert probe["temproot_var"] == (str(tmp_path / "mine") if var == "PYTEST_DEBUG_TEMPROOT" else None)


def test_a_basetemp_the_caller_names_is_kept(tmp_path):
    probe = _probe(tmp_path, f"--basetemp={tmp_path / 'own'}", str(TESTS / "test_state_machine.py"))
    assert Path(probe["basetemp"]) == tmp_path / "own"
    assert not list((tmp_path / "shm").iterdir())


def test_a_run_keeps_the_asserts_it_rewrote_in_hypothesis_as_bytecode_for_the_next(tmp_path):
    # pytest rewrites the asserts of every module of hypothesis (a plugin's distribution). Under
    # PYTHONDONTWRITEBYTECODE=1 it kept nothing unless conftest.py allowed it before that import:
    # every xdist worker spent ~1.7 s of CPU rewriting them all again. A run with a bytecode folder of
    # its own (and plugins loaded, as the suite runs) must leave them there.
    _probe(tmp_path, str(TESTS / "test_state_machine.py"), PYTHONDONTWRITEBYTECODE="1",
           PYTHONPYCACHEPREFIX=str(tmp_path / "bytecode"), PYTEST_DISABLE_PLUGIN_AUTOLOAD="")
    kept = [p for p in (tmp_path / "bytecode").rglob("*-pytest-*.pyc") if "hypothesis" in p.parts]
    assert len(kept) > 50, kept


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


def test_n_auto_runs_one_worker_more_than_the_cores_this_process_may_use(tmp_path):
    # (a number given stays that number: xdist asks the hook only for "auto")
    assert _probe(tmp_path, "-p", "xdist", "-n", "auto", str(TESTS / "test_state_machine.py"))["workers"] == \
        len(os.sched_getaffinity(0)) + 1


def test_each_workers_share_starts_with_its_part_of_the_slow_tests_each_kind_in_order():
    items = list(range(10))
    slow = {2, 7, 8, 9}.__contains__
    assert slow_first_in_each_share(items, 1, slow) == [2, 7, 8, 9, 0, 1, 3, 4, 5, 6]
    # worksteal deals 5 and 5: the first share opens with slow 2 and 8, the second with 7 and 9
    assert slow_first_in_each_share(items, 2, slow) == [2, 8, 0, 1, 3, 7, 9, 4, 5, 6]
    assert slow_first_in_each_share(items, 3, slow) == [2, 9, 0, 7, 1, 3, 8, 4, 5, 6]
    assert slow_first_in_each_share(items, 12, slow) == [2, 7, 8, 9, 0, 1, 3, 4, 5, 6]  # shares of 0 or 1
    for workers in range(1, 6):
        assert sorted(slow_first_in_each_share(items, workers, slow)) == items


# A module for a nested run that loads this suite's conftest.py as a plugin: twelve quick tests, the
# last three marked e2e, and a plugin that logs the order each worker runs them in.
ORDER_TESTS = '''
import pytest

@pytest.mark.parametrize("n", range(9))
def test_quick(n):
    pass

@pytest.mark.e2e
@pytest.mark.parametrize("n", range(3))
def test_slow(n):
    pass
'''
ORDER_LOG = '''
import os

def pytest_runtest_protocol(item, nextitem):  # where the test runs (a worker, or the one process)
    with open(os.path.join(os.environ["ORDER_OUT"], os.environ.get("PYTEST_XDIST_WORKER", "main")), "a") as out:
        out.write(item.name + "\\n")
'''


def _run_order(tmp_path: Path, *args: str) -> dict[str, list[str]]:
    """{worker: the tests it ran, in order} of a real nested run of ORDER_TESTS."""
    (tmp_path / "test_order.py").write_text(ORDER_TESTS)
    (tmp_path / "order_log.py").write_text(ORDER_LOG)
    (tmp_path / "order").mkdir()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
                           "-p", "order_log", "-p", "xdist", *args, "-c", str(TESTS.parent / "pyproject.toml"),
                           "--rootdir", str(tmp_path), f"--basetemp={tmp_path / 'temp'}", str(tmp_path / "test_order.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(tmp_path)]),
                               "ORDER_OUT": str(tmp_path / "order")})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return {p.name: p.read_text().split() for p in sorted((tmp_path / "order").iterdir())}


def test_n_without_dist_steals_work_and_each_worker_starts_on_its_share_of_the_e2e_tests(tmp_path):
    ran = _run_order(tmp_path, "-n", "2")
    assert sorted(ran) == ["gw0", "gw1"]
    assert sorted(name for names in ran.values() for name in names) == sorted(
        [f"test_quick[{n}]" for n in range(9)] + [f"test_slow[{n}]" for n in range(3)])
    # worksteal deals 6 and 6 (to whichever worker came up first): 2 of the slow tests open one share, 1 the other
    firsts = sorted(names[:2] if names[0] == "test_slow[0]" else names[:1] for names in ran.values())
    assert firsts == [["test_slow[0]", "test_slow[2]"], ["test_slow[1]"]], ran


@pytest.mark.parametrize("args", [["-n", "2", "--dist", "load"], ["-n", "0"]], ids=["dist given", "n 0"])
def test_otherwise_the_tests_run_in_pytests_own_order(tmp_path, args):
    ran = _run_order(tmp_path, *args)
    for names in ran.values():  # load hands each worker consecutive runs: e2e first would give them all to one
        assert names == sorted(names, key=lambda name: (name.startswith("test_slow"), name)), ran


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


@pytest.mark.e2e  # its nested run makes git start a hook (traced there, by the nested conftest)
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


@pytest.mark.e2e  # pc_template commits through the pre-commit framework's hooks
def test_a_template_built_through_hooks_names_them_for_every_test_that_copies_it(h_template, pc_template):
    assert h_template.data[HOOKS_KEY] == []
    assert {"pre-commit", "post-commit"} <= set(pc_template.data[HOOKS_KEY])
