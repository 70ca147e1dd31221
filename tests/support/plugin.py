"""The suite's pytest plumbing, as a plugin (conftest.py's ``pytest_plugins``): bytecode compiled once,
temp folders on a tmpfs, pytest-xdist's scheduling, and old runs' temp folders deleted in the background.
Its tests are end-to-end (they start nested pytest runs): tests/test_suite_layout.py and
tests/test_suite_temp_cleanup.py."""

from __future__ import annotations

import compileall
import os
import subprocess
from pathlib import Path

import pytest

from support.environment import ram_temp_root
from support.paths import ROOT
from support.scheduling import slow_first_in_each_share


@pytest.hookimpl(trylast=True)  # after pytest's tmp_path plugin has made config._tmp_path_factory
def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return  # the controller's choices reach the workers (xdist hands each its --basetemp)
    # Every `python -m harness` a test starts imports the package from source; with
    # PYTHONDONTWRITEBYTECODE=1 none of them would write its bytecode, so each would compile the
    # whole package again. Compile it once, before the run; __pycache__/ is ignored by git.
    compileall.compile_dir(str(ROOT / "harness"), quiet=1)
    _temp_in_memory(config)


def _temp_in_memory(config) -> None:
    """The run's temp folders on a tmpfs (support.environment.ram_temp_root) unless the machine has none to
    spare or the caller chose (``--basetemp``, PYTEST_DEBUG_TEMPROOT, TMPDIR). The choice is made
    by creating the run's folder now, with the variable set for that moment only: the processes
    the tests start, nested pytest runs among them, see the environment as the caller left it."""
    if config.option.basetemp or "PYTEST_DEBUG_TEMPROOT" in os.environ or "TMPDIR" in os.environ:
        return
    root = ram_temp_root()
    if root is None:
        return
    os.environ["PYTEST_DEBUG_TEMPROOT"] = str(root)
    try:
        config._tmp_path_factory.getbasetemp()
    finally:
        del os.environ["PYTEST_DEBUG_TEMPROOT"]


@pytest.hookimpl(wrapper=True)  # around pytest-xdist's own, which makes `-n` mean `--dist load`
def pytest_cmdline_main(config):
    # `-n` without `--dist` distributes as `--dist worksteal`: a worker that runs out of tests
    # takes the back half of a busy one's queue, so the run ends when the work does, not when the
    # worker dealt the slowest tests finishes them. A `--dist load` (or other mode) given stands.
    if getattr(config.option, "dist", "no") == "no" and getattr(config.option, "numprocesses", None):
        config.option.dist = "worksteal"
    return (yield)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without xdist
def pytest_xdist_auto_num_workers(config):
    # `-n auto`: one worker more than the cores this process may use. Many tests wait on a command,
    # a lock or a timeout they start; the extra worker runs while they wait (on 2 cores the inner
    # loop's mean wall time was ~8% lower over six runs against eight, inside the machine's noise;
    # the full suite's the same).
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without xdist
def pytest_configure_node(node):
    # The workers collect, and each rebuilds its options with `dist` reset to "no": tell them.
    node.workerinput["suite_dist"] = node.config.option.dist


def pytest_collection_modifyitems(config, items):
    workerinput = getattr(config, "workerinput", None)
    dist = workerinput.get("suite_dist") if workerinput else config.getoption("dist", "no")
    if dist == "worksteal":
        items[:] = slow_first_in_each_share(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")),
                                             lambda item: item.get_closest_marker("e2e") is not None)


def _held_by_a_live_run(folder: Path) -> bool:
    """Whether pytest's `.lock` in ``folder`` names a process still running: a run started beside
    this one (a single test file while the suite runs as evidence) whose repositories must stay.
    A killed run leaves its lock behind naming a dead pid; its folder goes like any other. A lock
    that cannot be read counts as held: pytest's own cleanup then decides, as it would anyway."""
    try:
        pid = int((folder / ".lock").read_text())
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # EPERM: alive, another user's
    return True


_RECORDS = pytest.StashKey[dict]()


def _records(root: Path) -> dict[str, bytes]:
    """What the checkout's own `.harness/` holds (its per-clone local/ state aside), file by file."""
    import hashlib

    harness = root / ".harness"
    out = {}
    for path in harness.rglob("*") if harness.is_dir() else ():
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".harness/local/") or not path.is_file() or path.is_symlink():
            continue
        out[rel] = hashlib.sha256(path.read_bytes()).digest()
    return out


def pytest_sessionstart(session):
    # The checkout the suite runs from holds a developer's real tasks: a test that records evidence
    # there (a `harness evidence` run from the wrong folder) replaces that record unseen.
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_RECORDS] = _records(ROOT)


def _checkout_changed(session) -> None:
    """Fail the run when its tests changed the checkout's own `.harness/`, naming what changed."""
    before = session.config.stash.get(_RECORDS, None)
    if before is None:
        return
    after = _records(ROOT)
    changed = sorted(rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel))
    if changed:
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            "the tests wrote into this checkout's own .harness/ (a test ran the harness outside its scratch "
            "repository): " + ", ".join(changed[:20]) + (f" (+{len(changed) - 20} more)" if len(changed) > 20 else ""),
            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    _checkout_changed(session)
    _move_old_runs_aside(session)


def _move_old_runs_aside(session) -> None:
    # pytest keeps the temp folders of the last three runs and, as a run ends, deletes the one
    # before them: ~55,000 files, ~8 s the developer waits for after the last test. Moved aside
    # here (a rename, instant) and deleted by a detached `rm` instead, so that pytest finds nothing
    # to delete; a trash an interrupted `rm` left is swept by the next run. The controller only
    # (xdist workers keep theirs under its folder), and only folders pytest numbered itself and
    # no live run holds.
    config = session.config
    if hasattr(config, "workerinput") or config.option.basetemp:
        return
    import uuid

    root = config._tmp_path_factory.getbasetemp().parent
    keep = int(config.getini("tmp_path_retention_count"))
    runs = sorted((int(p.name[7:]), p) for p in root.glob("pytest-*") if p.name[7:].isdigit() and not p.is_symlink())
    trash = [p for p in root.glob(".trash-*") if p.is_dir()]
    for number, path in runs:
        if number <= runs[-1][0] - keep and not _held_by_a_live_run(path):
            try:
                trash.append(path.rename(root / f".trash-{uuid.uuid4().hex}"))
            except OSError:
                continue  # pytest's own cleanup will try it
    if trash:
        subprocess.Popen(["rm", "-rf", "--", *map(str, trash)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
