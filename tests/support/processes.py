"""Processes a test starts and watches: exits, children, waits, a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import sys
import textwrap
import time
from pathlib import Path

from support.paths import PY


def gone(pid: int, within: float = 5.0) -> bool:
    """True once ``pid`` no longer runs (missing, or a zombie awaiting its reaper)."""
    deadline = time.monotonic() + within
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def group_gone(pgid: int, within: float = 5.0) -> bool:
    """True once no process of the group ``pgid`` runs (none left, or only zombies awaiting their reaper): a
    signal to the group (``killpg(pgid, 0)``) still reaches a zombie, so it cannot tell."""
    deadline = time.monotonic() + within
    while True:
        running = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                running.append(int(entry))
        if not running:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def py(code: str) -> tuple[str, ...]:
    return (PY, "-c", textwrap.dedent(code))


def children_of(pid: int, running: str | None = None) -> list[int]:
    """Child pids of ``pid``; with ``running``, only those whose argv[0] ends with it (exec done)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) != pid:
            continue
        if running is not None:
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv0 = f.read().split(b"\0")[0].decode(errors="replace")
            except OSError:
                continue
            if not argv0.endswith(running):
                continue
        out.append(int(entry))
    return out


def wait_for(predicate, within: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def run_in_pty(cwd: Path | str, args: list[str], answer: str, timeout: float = 30) -> tuple[int, str]:
    """Run ``python -m harness ARGS`` with a terminal on stdin/stdout, typing ``answer`` at the prompt."""
    pid, fd = pty.fork()
    if pid == 0:  # child: exec with the pty as its terminal
        os.chdir(cwd)
        os.execv(sys.executable, [sys.executable, "-m", "harness", *args])
    out, sent, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        if not sent and b"type \"approve\"" in out:
            os.write(fd, answer.encode() + b"\r")
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


# Each write waits until the capture has read it (the pipe holds no byte: FIONREAD), however busy the machine:
# the capture then reads each write apart, as on a quiet one. A sleep instead failed under two suites at once
# (the capture, not scheduled, read two writes of a stream in one read: docs/threat-model.md says what that keeps).
_WRITER_READ_APART = """import fcntl, json, struct, sys, termios, time
def read_by_the_capture(out):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            left = struct.unpack("i", fcntl.ioctl(out.fileno(), termios.FIONREAD, b"\\0" * 4))[0]
        except OSError:  # not a pipe: nothing to wait for
            return
        if not left:
            return
        time.sleep(0.002)
for stream, text in json.load(open(sys.argv[1])):
    out = (sys.stdout, sys.stderr)[stream]
    out.write(text)
    out.flush()
    read_by_the_capture(out)
    time.sleep(0.05)  # and, read, added to the capture under its lock: a few instructions on from the read
"""


def writer_read_apart(parts: Path) -> list[str]:
    """A command writing each ``[stream, text]`` of the JSON file ``parts`` (0: stdout, 1: stderr) in order, each
    read by the capture before the next is written, whatever the machine's load."""
    return [PY, "-c", _WRITER_READ_APART, str(parts)]
