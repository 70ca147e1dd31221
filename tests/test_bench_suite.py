"""bench/suite.py times nothing while an earlier test run's temp files are still being deleted."""

from __future__ import annotations

import importlib.util
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _suite():
    spec = importlib.util.spec_from_file_location("bench_suite", ROOT / "bench" / "suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_first_timed_run_waits_until_the_background_delete_is_done(tmp_path):
    trash = tmp_path / ".trash-0123"
    (trash / "deep").mkdir(parents=True)
    timer = threading.Timer(0.6, lambda: subprocess.run(["rm", "-rf", str(trash)], check=True))
    timer.start()
    waited = _suite().wait_for_background_deletes(tmp_path, limit=20, poll=0.05)
    timer.join()
    assert not trash.exists() and 0.5 <= waited < 10


def test_nothing_to_delete_costs_no_wait_and_a_stuck_trash_is_waited_for_only_up_to_the_limit(tmp_path):
    suite = _suite()
    (tmp_path / "pytest-3").mkdir()  # a kept run is not trash
    assert suite.wait_for_background_deletes(tmp_path, limit=5, poll=0.05) < 0.5
    (tmp_path / ".trash-left-by-a-killed-rm").mkdir()
    assert 0.3 <= suite.wait_for_background_deletes(tmp_path, limit=0.3, poll=0.05) < 2


def test_the_temp_root_is_pytests_for_this_user(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTEST_DEBUG_TEMPROOT", str(tmp_path))
    monkeypatch.setenv("USER", "someone")
    monkeypatch.setenv("LOGNAME", "someone")
    assert _suite().pytest_temp_root() == tmp_path / "pytest-of-someone"
