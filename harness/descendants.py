"""What a command leaves running once it exits, made ours and ended: a child subreaper's sweep (Linux).

An adapter: processes only. :mod:`harness.runner` starts a command in a process group of its own, and a reaping
run kills that group when the command exits. A process that left the group — a session of its own (``setsid``,
``start_new_session=True``), a daemon's double fork — is not reached by that kill, and its parent's exit hands it
to PID 1: it ran on for the rest of a CI job, free to write into every later re-run's worktree (F-0296).

So, while a reaping run's command runs, the process running it is a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``, Linux 3.4 and later): every descendant orphaned meanwhile is handed to it, not
to PID 1. Once the command has exited, every child that came since it started is killed (SIGKILL) and reaped, and
again, until none is left (a killed daemon's own children are handed to us in turn); those still running outside
the run's group are named. Only our children that were not there when the command started are touched: the
process's own others (a git it runs, a pool's probes) are not ours to end, and one reaping run at a time is
watched (an orphan of another child of ours, handed to us meanwhile, would be taken for the command's). Where the system offers no subreaper (not Linux: macOS, Windows) :attr:`Watch.active` is False and only
the group is killed. A process the command has another service start (``systemd-run``, a container daemon, ``at``)
is none of our descendants: it is not found.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

_SET, _GET = 36, 37  # PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER (linux/prctl.h)
_ROUNDS = 1000  # kill-and-reap rounds at most: a fork bomb outrunning them is named, not waited for forever
_DIE_WITHIN = 10.0  # seconds a SIGKILLed child gets to be reapable (one stuck in the kernel is named, not waited for)
_SHOWN = 200  # characters of a process's command line kept in its description


def _prctl(option: int, value: int) -> int | None:
    """prctl(2) through libc: the value PR_GET_* read, 0 for a PR_SET_* done; None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None
    if option == _GET:
        flag = ctypes.c_int(0)
        return flag.value if prctl(_GET, ctypes.byref(flag), 0, 0, 0) == 0 else None
    return 0 if prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0 else None


def available() -> bool:
    """Whether a reaping run here can be a child subreaper, and so find what left its group."""
    return _prctl(_GET, 0) is not None and os.path.isdir("/proc/self")


def _stat(pid: str) -> tuple[str, int, int, str] | None:
    """(state, parent pid, process group, start time) of ``pid`` from /proc; None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return fields[0].decode(), int(fields[1]), int(fields[2]), fields[19].decode()


def _children() -> dict[int, tuple[str, int, str]]:
    """Our children now: pid -> (state, process group, start time). The start time tells a pid used again apart."""
    me, out = os.getpid(), {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if entry.isdigit() and (stat := _stat(entry)) is not None and stat[1] == me:
            out[int(entry)] = (stat[0], stat[2], stat[3])
    return out


def _described(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read(_SHOWN * 4).rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        argv = ""
    argv = " ".join(argv.split())  # one line: a `python -c` program's own lines are spaces here
    argv = argv if len(argv) <= _SHOWN else argv[:_SHOWN] + "…"
    return f"pid {pid} `{argv or '?'}`"


class Watch:
    """One reaping run's watch: made just before its command starts, swept once it has exited, closed after."""

    def __init__(self) -> None:
        was = _prctl(_GET, 0)
        self.active = was is not None and _prctl(_SET, 1) == 0
        self._restore = self.active and was == 0
        # Our children already there (pid and start time): not the command's.
        self._before = {(pid, start) for pid, (_, _, start) in _children().items()} if self.active else set()

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def sweep(self, group: int) -> list[str]:
        """Kill and reap every child of ours that came since the watch began (the command's leader already reaped),
        round after round until none is left; the descriptions of those that ran outside the process group
        ``group``, and of any that would not die. [] when the watch is not active."""
        named: list[str] = []
        skip = set(self._before)
        for _ in range(_ROUNDS) if self.active else ():
            found = {pid: c for pid, c in _children().items() if (pid, c[2]) not in skip}
            if not found:
                return named
            for pid, (state, pgid, _) in found.items():
                if state not in ("Z", "X") and pgid != group:
                    named.append(_described(pid))
                with _gone():  # our child, not yet reaped: its pid cannot be anyone else's
                    os.kill(pid, signal.SIGKILL)
            stuck = _reap(list(found))
            named.extend(f"{_described(pid)} (would not die)" for pid in stuck)
            skip.update((pid, found[pid][2]) for pid in stuck)
        if self.active:
            named.append(f"more processes than {_ROUNDS} rounds of killing ended (still forking)")
        return named

    def close(self) -> None:
        if self._restore:
            _prctl(_SET, 0)
            self._restore = False


def _reap(pids: list[int]) -> list[int]:
    """Reap ``pids`` (our children, SIGKILLed); those not reapable within :data:`_DIE_WITHIN` seconds."""
    left, deadline = list(pids), time.monotonic() + _DIE_WITHIN
    while True:
        for pid in list(left):
            with _gone():
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue  # not dead yet
            left.remove(pid)  # reaped, or not ours to reap (another thread's wait took it)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.002)


def _gone() -> contextlib.suppress:
    """A process that is gone already, or not ours: nothing to do."""
    return contextlib.suppress(ProcessLookupError, ChildProcessError, PermissionError)
