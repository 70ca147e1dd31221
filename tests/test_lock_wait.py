"""A held lock never means silent waiting: after 2 s a command says who holds it (once),
and HARNESS_LOCK_TIMEOUT bounds the wait with exit 2.

One test waits out the real 2 s in a real process; the others run the CLI in-process with
``fsio.NOTICE_AFTER`` shortened, which exercises the same code path in a fraction of the time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.store import fsio

HOLD = """
import select, sys
from pathlib import Path
sys.argv = ["harness", "evidence", "unit_test", "--", "secret-arg"]
from harness.store import fsio
with fsio.locked(Path(".harness/local/lock")):
    print("held", flush=True)
    select.select([sys.stdin], [], [], float(sys.stdin.readline() or 30))  # a line (or EOF) releases it sooner
"""


def hold_lock(repo: Path, seconds: float) -> subprocess.Popen:
    """A process holding the store lock (exclusively) for ``seconds``, or until :func:`release`;
    returns once it holds it."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD], cwd=repo, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    proc.stdin.write(f"{seconds}\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "held"
    return proc


def release(proc: subprocess.Popen) -> None:
    """Let the holder leave its ``with fsio.locked(...)`` block normally (unlocking), and exit."""
    proc.stdin.write("release\n")
    proc.stdin.flush()
    proc.wait(10)


def finish(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait(10)


def test_a_writer_gives_up_after_harness_lock_timeout_naming_the_holder(h, repo, task, monkeypatch):
    # In-process, with the 2 s notice brought forward: the same wait loop, 0.6 s instead of 3 s.
    monkeypatch.setattr(fsio, "NOTICE_AFTER", 0.2)
    monkeypatch.setenv("HARNESS_LOCK_TIMEOUT", "0.6")
    holder = hold_lock(repo, 60)
    try:
        start = time.monotonic()
        r = h("requirement", "add", "Waits", "--priority", "must")
        waited = time.monotonic() - start
    finally:
        finish(holder)
    assert r.code == 2, r.err
    assert f"gave up after 0.6s waiting for the harness lock, held by pid {holder.pid} (harness evidence unit_test)" in r.err
    assert r.err.count("waiting for the lock") == 1  # the notice, once
    assert "secret-arg" not in r.err
    assert waited >= 0.6  # HARNESS_LOCK_TIMEOUT: it waited that long before giving up
    assert "Waits" not in (repo / ".harness/tasks" / task / "requirements.yaml").read_text()


def test_a_real_process_gives_up_with_exit_2_naming_the_holder(h, repo, task):
    # The exit code and message as a shell sees them (the in-process test above checks the notice).
    holder = hold_lock(repo, 60)
    try:
        r = h.proc("requirement", "add", "Waits", "--priority", "must", env={"HARNESS_LOCK_TIMEOUT": "0.5"},
                   timeout=60)
    finally:
        finish(holder)
    assert r.code == 2, r.err
    assert f"gave up after 0.5s waiting for the harness lock, held by pid {holder.pid}" in r.err, r.err
    assert "Waits" not in (repo / ".harness/tasks" / task / "requirements.yaml").read_text()


def test_a_reader_waits_speaks_once_and_proceeds_when_the_lock_is_released(h, repo, task):
    # A real process and the real 2 s notice; the holder lets go as soon as the reader has spoken
    # (or by itself after 30 s, and then the missing notice fails the test).
    holder = hold_lock(repo, 30)
    try:
        start = time.monotonic()
        reader = subprocess.Popen([sys.executable, "-m", "harness", "status"], cwd=repo, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        notice = reader.stderr.readline()
        waited = time.monotonic() - start
        release(holder)
        out, rest = reader.communicate(timeout=60)
    finally:
        finish(holder)
    err = notice + rest
    assert reader.returncode == 0, err
    assert err.count("waiting for the lock") == 1 and f"held by pid {holder.pid}" in notice, err
    assert "HARNESS_LOCK_TIMEOUT" in notice
    assert waited >= 2  # fsio.NOTICE_AFTER: the reader waited in silence until then
    assert "Next:" in out  # it proceeded: a full status


def test_no_notice_when_the_lock_is_free(h, repo, task):
    r = h.proc("requirement", "add", "Quick", "--priority", "must", env={"HARNESS_LOCK_TIMEOUT": "0"}, timeout=60)
    assert r.code == 0 and "waiting" not in r.err, r.err


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_malformed_lock_timeout_is_a_usage_error_when_there_is_a_wait(h, repo, task, value, monkeypatch):
    monkeypatch.setenv("HARNESS_LOCK_TIMEOUT", value)
    holder = hold_lock(repo, 60)
    try:
        r = h("requirement", "add", "Bad", "--priority", "must")
    finally:
        finish(holder)
    assert r.code == 2 and "HARNESS_LOCK_TIMEOUT" in r.err and "not a number of seconds" in r.err, r.err


def test_the_store_itself_never_prints_while_waiting(tmp_path, capfd, monkeypatch):
    lock = tmp_path / "local" / "lock"
    lock.parent.mkdir()
    heard: list[str] = []
    holder = hold_lock_at(tmp_path)
    try:
        monkeypatch.setattr(fsio, "NOTICE_AFTER", 0.0)  # waits past the notice from the start
        monkeypatch.setenv("HARNESS_LOCK_TIMEOUT", "0.2")
        with pytest.raises(HarnessError), fsio.locked(lock):
            pass
        assert capfd.readouterr() == ("", "")
        monkeypatch.setattr(fsio, "NOTICE_AFTER", 0.2)
        monkeypatch.setenv("HARNESS_LOCK_TIMEOUT", "0.5")
        with pytest.raises(HarnessError, match=r"gave up after 0\.5s"), fsio.locked(lock, shared=True, on_wait=heard.append):
            pass
    finally:
        finish(holder)
    assert len(heard) == 1 and f"pid {holder.pid}" in heard[0]


def hold_lock_at(root: Path) -> subprocess.Popen:
    (root / ".harness").mkdir(exist_ok=True)
    if not (root / ".harness" / "local").exists():
        os.symlink(root / "local", root / ".harness" / "local")
    return hold_lock(root, 60)
