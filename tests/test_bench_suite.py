"""bench/suite.py times nothing while an earlier test run's temp files are still being deleted."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _suite():
    spec = importlib.util.spec_from_file_location("bench_suite", ROOT / "bench" / "suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeClock:
    """bench/suite.py's clock: time moves only when it sleeps, and ``then`` runs once it reaches ``at``
    (what a test can hold does not depend on how busy the machine is)."""

    def __init__(self, at: float = float("inf"), then=lambda: None) -> None:
        self.now, self.at, self.then = 0.0, at, then

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        if self.now >= self.at:
            self.at = float("inf")
            self.then()


def test_the_first_timed_run_waits_until_the_background_delete_is_done(tmp_path, monkeypatch):
    suite = _suite()
    trash = tmp_path / ".trash-0123"
    (trash / "deep").mkdir(parents=True)
    monkeypatch.setattr(suite, "time", FakeClock(at=0.6, then=lambda: subprocess.run(["rm", "-rf", str(trash)],
                                                                                     check=True)))
    waited = suite.wait_for_background_deletes(tmp_path, limit=20, poll=0.25)
    assert not trash.exists() and waited == 0.75  # the first look after the delete, not the limit


def test_nothing_to_delete_costs_no_wait_and_a_stuck_trash_is_waited_for_only_up_to_the_limit(tmp_path, monkeypatch):
    suite = _suite()
    monkeypatch.setattr(suite, "time", FakeClock())
    (tmp_path / "pytest-3").mkdir()  # a kept run is not trash
    assert suite.wait_for_background_deletes(tmp_path, limit=5, poll=0.25) == 0
    (tmp_path / ".trash-left-by-a-killed-rm").mkdir()
    assert suite.wait_for_background_deletes(tmp_path, limit=1, poll=0.25) == 1


def test_the_temp_roots_are_pytests_for_this_user_and_the_suites_tmpfs(monkeypatch, tmp_path):
    suite = _suite()
    monkeypatch.setenv("PYTEST_DEBUG_TEMPROOT", str(tmp_path / "disk"))
    monkeypatch.setenv("USER", "someone")
    monkeypatch.setenv("LOGNAME", "someone")
    monkeypatch.setattr(suite, "in_memory", lambda: None)
    assert suite.pytest_temp_roots() == [tmp_path / "disk" / "pytest-of-someone"]
    monkeypatch.setattr(suite, "in_memory", lambda: tmp_path / "ram")
    assert suite.pytest_temp_roots() == [tmp_path / "disk" / "pytest-of-someone", tmp_path / "ram" / "pytest-of-someone"]
    monkeypatch.setattr(suite, "in_memory", lambda: tmp_path / "disk")  # one root named once
    assert suite.pytest_temp_roots() == [tmp_path / "disk" / "pytest-of-someone"]


def _main_with(monkeypatch, capsys, walls: dict[str, float], codes: dict[str, int] | None = None, *argv: str):
    suite = _suite()
    ran: list[str] = []

    def fake(label, checkout, args, tmp):
        key = label.split()[0]
        ran.append(key)
        return walls[key], f"{key} summary", (codes or {}).get(key, 0)

    monkeypatch.setattr(suite, "timed_pytest", fake)
    monkeypatch.setattr(suite, "old_checkout", lambda rev, where: where / "before")
    monkeypatch.setattr(suite, "wait_for_background_deletes", lambda root: 0.0)
    monkeypatch.setattr(suite, "files_at", lambda rev: ["tests/test_a.py"])
    code = suite.main(list(argv))
    return code, ran, capsys.readouterr().out


def test_only_inner_times_the_inner_loop_alone_and_exits_on_its_target(monkeypatch, capsys):
    code, ran, out = _main_with(monkeypatch, capsys, {"inner": 50.0}, None, "--only", "inner")
    assert (code, ran) == (0, ["inner"]) and "TARGET 8 inner loop: 50.0 s (target < 60 s) — MET" in out
    assert "full suite" not in out
    code, _, out = _main_with(monkeypatch, capsys, {"inner": 61.0}, None, "--only", "inner")
    assert code == 1 and "— NOT MET" in out


def test_only_full_times_the_full_suite_against_the_one_before_and_exits_on_the_ratio(monkeypatch, capsys):
    code, ran, out = _main_with(monkeypatch, capsys, {"full": 100.0, "before": 250.0}, None, "--only", "full")
    assert (code, ran) == (0, ["full", "before"]) and "before / after = 2.50x (target >= 2x) — MET" in out
    code, _, out = _main_with(monkeypatch, capsys, {"full": 100.0, "before": 190.0}, None, "--only", "full")
    assert code == 1 and "1.90x (target >= 2x) — NOT MET" in out


def test_a_failed_run_makes_every_target_invalid_and_exits_2(monkeypatch, capsys):
    walls = {"inner": 10.0, "full": 10.0, "same": 10.0, "before": 100.0}
    code, ran, out = _main_with(monkeypatch, capsys, walls, {"full": 1})
    assert code == 2 and ran == ["inner", "full", "same", "before"] and out.count("INVALID (a run failed: full)") == 2
