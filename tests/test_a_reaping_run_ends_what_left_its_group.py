"""A reaping run (``run_command(reap=True)``: CI's re-runs, PASS_TO_PASS) ends whatever its command left running,
also a process that left the run's process group and session (``setsid``, ``start_new_session=True``, a daemon's
double fork): killing the group did not reach it, and it kept running for the rest of a CI job, free to write into
every later re-run's worktree (F-0296). Such a process is named in the result; what the command waited for, or
what exited before it did, is not. Linux only: the process that runs the command is a child subreaper meanwhile."""

from __future__ import annotations

import os
import signal
import sys
import textwrap

import pytest

from harness import runner

from support.processes import children_of, gone

PY = sys.executable
MARK = "harness-test-escaped"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is Linux's")

# Starts a process that leaves the run's group and session (argv[1] says how), waits until it runs its own program,
# prints its pid and exits without waiting for it.
ESCAPER = textwrap.dedent(f"""
    import os, subprocess, sys, time
    child = [sys.executable, "-c", "import time; time.sleep(120)", {MARK!r}]
    if sys.argv[1] == "new-session":
        pid = subprocess.Popen(child, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL).pid
    else:  # a daemon's double fork: the first child starts a session, forks the daemon, and exits
        r, w = os.pipe()
        first = os.fork()
        if first == 0:
            os.setsid()
            second = os.fork()
            if second == 0:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.execv(sys.executable, child)
            os.write(w, str(second).encode())
            os._exit(0)
        os.close(w)
        pid = int(os.read(r, 64))
        os.waitpid(first, 0)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the exec is done: the run surely ends with it running
        try:
            if {MARK!r}.encode() in open(f"/proc/{{pid}}/cmdline", "rb").read():
                break
        except OSError:
            pass
        time.sleep(0.01)
    print(pid, flush=True)
""")

# Commands that leave nothing running: a child in a session of its own waited for, one that exited (a zombie no one
# reaped: the command exits without waiting), a background job of the run's own group (killed with it, as before).
HONEST = {
    "waited": textwrap.dedent("""
        import subprocess, sys
        p = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True)
        p.wait()
        print(p.pid, flush=True)
    """),
    "exited-unreaped": textwrap.dedent("""
        import os, subprocess, sys, time
        p = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
            time.sleep(0.01)
        print(p.pid, flush=True)
        os._exit(0)  # not waited for: a zombie, handed on when the command exits
    """),
    "in-group": textwrap.dedent("""
        import subprocess
        p = subprocess.Popen(["sleep", "120"])
        print(p.pid, flush=True)
    """),
}


def _subreaper() -> int:
    import ctypes

    flag = ctypes.c_int(-1)
    ctypes.CDLL(None, use_errno=True).prctl(37, ctypes.byref(flag), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
    return flag.value


def _end(pid: int) -> None:
    """The test's own escaped process, if still running (never another's: its command line is checked)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if MARK.encode() in f.read():
                os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


@pytest.mark.parametrize("how", ["new-session", "double-fork"])
def test_a_process_that_left_the_run_s_group_and_session_is_ended_with_the_run_and_named(how):
    r = runner.run_command([PY, "-c", ESCAPER, how], echo=False, reap=True, timeout=120)
    pid = int(r.stdout.head.split()[0])
    try:
        assert r.outcome == "passed", r.combined.head
        assert gone(pid), f"{how}: pid {pid} still runs after the reaping run returned"
        assert pid not in children_of(os.getpid())  # killed and reaped: no zombie of ours left
        assert len(r.left_running) == 1 and f"pid {pid}" in r.left_running[0] and MARK in r.left_running[0]
        assert _subreaper() == 0  # the flag is ours only while the command runs
    finally:
        _end(pid)


def test_a_run_that_does_not_reap_leaves_the_process_as_before():
    r = runner.run_command([PY, "-c", ESCAPER, "new-session"], echo=False, timeout=120)
    pid = int(r.stdout.head.split()[0])
    try:
        assert not gone(pid, within=0.2) and r.left_running == ()
    finally:
        _end(pid)


@pytest.mark.parametrize("how", sorted(HONEST))
def test_a_command_that_leaves_nothing_running_is_not_named(how):
    r = runner.run_command([PY, "-c", HONEST[how]], echo=False, reap=True, timeout=120)
    assert r.outcome == "passed", r.combined.head
    pid = int(r.stdout.head.split()[0])
    assert r.left_running == ()
    assert gone(pid)
    assert pid not in children_of(os.getpid())  # a zombie handed to us is reaped
    assert _subreaper() == 0


def test_where_no_subreaper_is_offered_only_the_group_is_killed_and_nothing_is_named(monkeypatch):
    from harness import descendants

    monkeypatch.setattr(descendants, "_prctl", lambda option, value: None)  # not Linux, or a sandbox that refuses it
    assert not descendants.available()
    r = runner.run_command([PY, "-c", ESCAPER, "new-session"], echo=False, reap=True, timeout=120)
    pid = int(r.stdout.head.split()[0])
    try:
        assert r.outcome == "passed" and r.left_running == ()
        assert not gone(pid, within=0.2)  # the fallback: what left the group runs on (the audit says so)
    finally:
        _end(pid)
