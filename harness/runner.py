"""Run one real command, live-echoed, with output captured in bounded memory.

An adapter: processes and pipes only. Callers turn a RunResult into evidence (and redact it).
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from harness.core.value_class import dataclass
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import IO, Any

    from harness.descendants import Watch

# What a CI machine may pass on: where programs are, who and where it is, how text is encoded.
# Everything else (PYTHONPATH, PYTEST_ADDOPTS, GIT_*, LD_PRELOAD, …) could bend the run.
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TEMP", "TMP", "TERM",
            "SHELL", "SYSTEMROOT", "CI")
# A read takes what the pipe holds, up to this: as much as _widen_pipes lets a pipe hold, so a command
# writing megabytes is read in a sixteenth of the reads (and locks, and echo writes) 64 KiB took.
CHUNK = 1024 * 1024
_DAY_MS = 86_400_000
_POLL_MS = 100  # how often a reader re-checks its stop flag while the pipe is idle


@dataclass(frozen=True)
class Capture:
    """One output stream: its first ``head_cap`` bytes and last ``tail_cap`` bytes."""

    head: bytes
    tail: bytes
    total_bytes: int
    # Of the combined stream: the stream each kept byte came from (0 stdout, 1 stderr), the head's then
    # the tail's; empty for one stream. A secret written half to each stream is whole only here.
    origin: bytes = b""
    # Up to TAIL_LEAD bytes just before ``tail`` that neither part kept: never written anywhere, only read with
    # the tail's first bytes, for the words a secret there is known by (read 57's F-0123).
    before_tail: bytes = b""
    before_origin: bytes = b""  # of the combined stream: the stream of each byte of ``before_tail``

    @property
    def truncated(self) -> bool:
        return self.total_bytes > len(self.head) + len(self.tail)


@dataclass(frozen=True)
class RunResult:
    outcome: str  # passed | failed | timeout | interrupted | not_found | not_executable
    exit_code: int | None  # signal death -> 128 + signum, like a shell
    started_at: float
    finished_at: float
    duration_s: float
    stdout: Capture
    stderr: Capture
    combined: Capture
    error: str | None
    # Of a reaping run: what it killed once the command had exited that ran outside the command's process group
    # (a session of its own, a daemon's double fork: F-0296), each as `pid N `argv``; see harness.descendants.
    left_running: tuple[str, ...] = ()


TAIL_LEAD = 256  # bytes the ring keeps before the tail: `Authorization: Bearer ` and the like, with room to spare


class _Bounded:
    """Head + ring-buffer tail, so 50 MB of output never costs 50 MB of memory."""

    def __init__(self, head_cap: int, tail_cap: int, origins: bool = False) -> None:
        self.head_cap, self.tail_cap = head_cap, tail_cap
        self.ring_cap = tail_cap + TAIL_LEAD if tail_cap > 0 else 0  # the tail, and what came just before it
        self.head, self.ring, self.total = bytearray(), bytearray(), 0
        # With ``origins``, the stream of each kept byte, beside it (see Capture.origin).
        self.origins = (bytearray(), bytearray()) if origins else None

    def add(self, chunk: bytes, origin: int = 0) -> None:
        self.total += len(chunk)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            if self.origins is not None:
                self.origins[0].extend(bytes((origin,)) * len(chunk[:room]))
            chunk = chunk[room:]
        if chunk and self.ring_cap > 0:
            chunk = chunk[-self.ring_cap:]
            # Drop the oldest bytes before appending, so the ring never exceeds ring_cap.
            drop = max(0, len(self.ring) + len(chunk) - self.ring_cap)
            del self.ring[:drop]
            self.ring += chunk
            if self.origins is not None:
                del self.origins[1][:drop]
                self.origins[1].extend(bytes((origin,)) * len(chunk))

    def freeze(self) -> Capture:
        lead = max(0, len(self.ring) - self.tail_cap)
        origin = bytes(self.origins[0] + self.origins[1][lead:]) if self.origins is not None else b""
        before_origin = bytes(self.origins[1][:lead]) if self.origins is not None else b""
        return Capture(bytes(self.head), bytes(self.ring[lead:]), self.total, origin, bytes(self.ring[:lead]),
                       before_origin)


def _argv(command: list[str] | str, shell: bool) -> list[str]:
    if shell and isinstance(command, list):
        command = shlex.join(command)
    if shell and isinstance(command, str) and command.strip():
        return ["/bin/sh", "-c", command]
    if not shell and isinstance(command, list) and command and command[0]:
        return [os.fspath(a) for a in command]
    raise HarnessError(f"empty or malformed command: {command!r}",
                       hint="pass a non-empty argument list, or a string with shell=True")


def checked_argv(command: list[str] | str, shell: bool,
                 cwd: str | os.PathLike | None = None) -> list[str]:
    """The argv :func:`run_command` would run; raises for what it would refuse. Callers
    check first when they record anything before the run (a half-recorded run is worse)."""
    argv = _argv(command, shell)
    if cwd is not None and not os.path.isdir(cwd):
        raise HarnessError(f"working directory does not exist: {os.fspath(cwd)}")
    return argv


class _Signalled(KeyboardInterrupt):
    """SIGTERM or SIGHUP to us while the command runs: stopped just as Ctrl-C stops it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _StopSignals:
    """While installed, SIGTERM and SIGHUP become :class:`_Signalled`, but only when armed; so does
    Ctrl-C (SIGINT) where Python's own handler would raise KeyboardInterrupt.

    The command runs in its own session, so a kill or a closed terminal reaches only us;
    dying of it would orphan the command. A signal that arrives unarmed (before the wait,
    or during cleanup) is kept and raised on arming, or dropped once the run is over. A
    Ctrl-C is not dropped: one kept past the run is raised when the handlers are taken down,
    as KeyboardInterrupt would have been (a Ctrl-C between the start and the wait used to
    end the caller and leave the command running; a busy machine widens that window).
    """

    SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def __init__(self) -> None:
        self.armed = False
        self.pending: int | None = None
        self.old: dict[signal.Signals, Any] = {}

    def __enter__(self) -> _StopSignals:
        for sig in self.SIGNALS:
            current = signal.getsignal(sig)
            if current == signal.SIG_IGN:
                continue  # `nohup harness …` asked for hangups to be ignored (a background job, Ctrl-C): so they stay
            if sig == signal.SIGINT and current is not signal.default_int_handler:
                continue  # a caller's own Ctrl-C handler runs as before
            try:
                self.old[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread: only it can handle signals
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self.old.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)
        if self.pending == signal.SIGINT and exc[0] is None:
            self.pending = None
            raise KeyboardInterrupt  # a Ctrl-C the run did not take (it came during the cleanup): the caller's

    def _handle(self, signum: int, _frame: object) -> None:
        if self.armed:
            self.armed = False
            raise _Signalled(signum)  # taken by this run: nothing left pending
        if self.pending is None:
            self.pending = signum

    def arm(self) -> None:
        self.armed = True
        if self.pending is not None:
            self.armed = False
            pending, self.pending = self.pending, None  # taken by this run
            raise _Signalled(pending)


def _wait(proc: subprocess.Popen, timeout: float | None) -> bool:
    """True if the process exited, False if ``timeout`` elapsed. Tests patch this seam."""
    exited = _exited_within(proc.pid, timeout) if timeout is not None else True
    if exited is None:  # no pidfd (not Linux, or before 5.3): Popen's own wait
        with contextlib.suppress(subprocess.TimeoutExpired):
            return proc.wait(timeout) is not None
        return False
    if exited:
        proc.wait()
    return exited


def _exited_within(pid: int, timeout: float) -> bool | None:
    """Whether ``pid`` (our child, not yet reaped) exits within ``timeout`` seconds; None where
    the kernel offers no pidfd. Popen.wait(timeout) polls with sleeps that double up to 50 ms,
    so a command done in 30 ms was seen done at 60 ms: every evidence run paid up to that much.
    A pidfd becomes readable the moment the process exits. A signal handler's exception (Ctrl-C,
    SIGTERM) interrupts the poll as it interrupts Popen's sleep."""
    try:
        fd = os.pidfd_open(pid)  # Linux only: AttributeError elsewhere
    except (AttributeError, OSError):
        return None
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        deadline = time.monotonic() + timeout  # inf (or nan, which no comparison holds): no end
        while True:  # in slices: poll takes at most 2**31 - 1 ms
            left = deadline - time.monotonic()
            ms = max(0, math.ceil(left * 1000)) if left < _DAY_MS / 1000 else _DAY_MS
            if poller.poll(ms):
                return True
            if ms < _DAY_MS:
                return False
    finally:
        os.close(fd)


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # group already gone
        os.killpg(pgid, sig)


def _join(threads: list[threading.Thread], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))


def _kill_group(proc: subprocess.Popen, grace: float, readers: list[threading.Thread]) -> None:
    """SIGTERM the whole group (grandchildren too), allow ``grace`` s, then SIGKILL it.

    The group is done early once the leader exits and both pipes hit EOF; probing the
    group itself would count zombies, which linger where PID 1 does not reap orphans.
    """
    _signal_group(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(grace)
    _join(readers, deadline - time.monotonic())
    _signal_group(proc.pid, signal.SIGKILL)
    proc.wait()


def run_command(command: list[str] | str, *, shell: bool = False,
                cwd: str | os.PathLike | None = None, timeout: float | None = None,
                env: dict[str, str] | None = None, head_cap: int = 4 * 1024 * 1024,
                tail_cap: int = 256 * 1024, echo: bool = True,
                kill_grace: float = 2.0, reap: bool = False) -> RunResult:
    """Run ``command`` to completion, timeout or Ctrl-C; raise only for bad arguments.

    ``env`` is the child's complete environment (as in subprocess); None inherits ours.
    Signal deaths are reported as 128 + signum, as a shell does. ``reap``: once the command
    exits, whatever it left running in its group is killed (a re-run judges a commit the agent
    wrote: a process it leaves behind could change what the audit reads next, read 68's F-0230),
    and so, where the system lets us be a child subreaper (Linux), is every process it started that
    left the group (F-0296): those are named in ``left_running`` and added to the process's record
    (``context.Process.left_running``) for whoever judges runs whose result it does not see.
    """
    argv = checked_argv(command, shell, cwd)
    caps = [_Bounded(head_cap, tail_cap, origins=i == 2) for i in range(3)]  # stdout, stderr, combined
    started_at, t0 = time.time(), time.monotonic()

    def result(outcome: str, code: int | None, error: str | None, left: tuple[str, ...] = ()) -> RunResult:
        out, err, combined = (c.freeze() for c in caps)
        return RunResult(outcome, code, started_at, time.time(), time.monotonic() - t0, out, err, combined, error,
                         left)

    # Installed before the command starts, so no SIGTERM can land between start and wait; the watch too, so no
    # process the command starts is orphaned to PID 1 before it.
    with _StopSignals() as stop_signals, _watch(reap) as watch:
        return _run(argv, cwd, env, timeout, caps, echo, kill_grace, stop_signals, result, watch)


def _watch(reap: bool) -> contextlib.AbstractContextManager:
    """A reaping run's watch over what its command leaves running (harness.descendants); none otherwise."""
    if not reap:
        return contextlib.nullcontext(None)
    from harness.descendants import Watch

    return Watch()


def _run(argv: list[str], cwd: str | os.PathLike[str] | None, env: dict[str, str] | None,
         timeout: float | None, caps: list[_Bounded], echo: bool, kill_grace: float,
         stop_signals: _StopSignals, result: Callable[..., RunResult], watch: Watch | None = None) -> RunResult:
    """The body of :func:`run_command`, run while its signal handlers are installed."""
    try:
        # Own session: Ctrl-C at the terminal reaches only us, and killpg() reaches
        # every process the command spawned.
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except (FileNotFoundError, NotADirectoryError):
        return result("not_found", None, f"command not found: {argv[0]}")
    except OSError as exc:
        # Found but not runnable: no permission, a folder, a file without `#!` (ENOEXEC), an
        # argument list too long. A fact about the command, as a shell's exit 126 is.
        return result("not_executable", None, f"command not executable: {argv[0]}: {exc.strerror or exc}")

    _widen_pipes(proc)
    drain = _Drain(proc, caps, echo)
    outcome, error = _wait_armed(proc, timeout, stop_signals, drain.readers)
    readers = [t for t in drain.readers if t.ident is not None]  # only those that started
    if outcome:
        _kill_group(proc, kill_grace, readers)
    elif watch is not None:
        _signal_group(proc.pid, signal.SIGKILL)  # the leader is gone: only what it left behind is left
    left = _swept(watch, proc.pid)

    # Readers normally hit EOF at once, but a straggler that outlives the command (a
    # background job, or one that left our group) may hold the pipe: bound the wait.
    _join(readers, kill_grace)
    drain.stop.set()
    _join(readers, 1.0)

    code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    return result(outcome or ("passed" if code == 0 else "failed"), code, error, left)


_RECORDED = 100  # entries the process's record of what reaping runs left running keeps (the latest)


def _swept(watch: Watch | None, group: int) -> tuple[str, ...]:
    """What the command left running outside its group, killed (and put on the process's record)."""
    if watch is None:
        return ()
    left = tuple(watch.sweep(group))
    if left:
        from harness import context

        record = context.process().left_running
        record.extend(left)
        del record[:-_RECORDED]
    return left


_PIPE_BYTES = 1 << 20  # Linux's default limit for an unprivileged process (/proc/sys/fs/pipe-max-size)


def _widen_pipes(proc: subprocess.Popen) -> None:
    """Give the command's pipes 1 MiB instead of 64 KiB where Linux allows it: a command writing
    megabytes then waits for our reader a sixteenth as often (each wait is two context switches).
    Nothing else changes: the same bytes arrive in the same order."""
    try:
        import fcntl

        setpipe = fcntl.F_SETPIPE_SZ  # Linux only (AttributeError elsewhere)
    except (ImportError, AttributeError):
        return
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):  # over the limit, or not a pipe: keep what it has
                fcntl.fcntl(pipe.fileno(), setpipe, _PIPE_BYTES)


class _Drain:
    """The command's stdout and stderr read on two threads into the captures, echoed live.

    Two threads: neither pipe can fill up and deadlock the child.
    """

    def __init__(self, proc: subprocess.Popen, caps: list[_Bounded], echo: bool) -> None:
        self.caps, self.echo = caps, echo
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.sinks = [getattr(sys.stdout, "buffer", None), getattr(sys.stderr, "buffer", None)]
        self.readers = [threading.Thread(target=self._read, args=(i, p), daemon=True)
                        for i, p in enumerate((proc.stdout, proc.stderr))]

    def _read(self, index: int, pipe: IO[bytes]) -> None:
        # Poll with a timeout rather than block in read(): a straggler holding the pipe
        # open must not pin this thread. The reader closes its own pipe, never under a read.
        poller = select.poll()
        poller.register(pipe, select.POLLIN)
        with pipe:
            while not self.stop.is_set():
                if not poller.poll(_POLL_MS):
                    continue
                chunk = os.read(pipe.fileno(), CHUNK)
                if not chunk:
                    return
                with self.lock:  # one lock keeps `combined` in arrival order
                    self.caps[index].add(chunk)
                    self.caps[2].add(chunk, index)
                    sink = self.sinks[index]
                    if self.echo and sink is not None:
                        try:
                            sink.write(chunk)
                            sink.flush()
                        except (OSError, ValueError):  # our stdout is gone; keep capturing
                            self.echo = False


def _wait_armed(proc: subprocess.Popen, timeout: float | None, stop_signals: _StopSignals,
                readers: list[threading.Thread]) -> tuple[str | None, str | None]:
    """Start the readers and wait for the command with the stop signals armed: (None, None) when it
    exited, else the outcome and error of a timeout or an interruption (the command still runs)."""
    outcome = error = None
    try:
        # Started inside the try: a Ctrl-C that lands while they start must still kill
        # the command, which runs in its own session and never sees the terminal's SIGINT.
        # Started before arming: a signal kept since the start is raised there, and what the
        # command already wrote must still be read (F-0112).
        for t in readers:
            t.start()
        stop_signals.arm()
        if not _wait(proc, timeout):
            outcome, error = "timeout", f"timed out after {timeout:g}s"
    except KeyboardInterrupt as exc:  # the caller records the run, then exits 130
        outcome = "interrupted"
        error = (f"interrupted by {signal.Signals(exc.signum).name}"
                 if isinstance(exc, _Signalled) and exc.signum != signal.SIGINT else "interrupted by user")
    stop_signals.armed = False  # a second signal must not cut the cleanup short
    return outcome, error


def clean_env() -> dict[str, str]:
    """The environment a re-run and PASS_TO_PASS run in: where programs are, who and where the user is,
    how text is encoded — not PYTEST_ADDOPTS, PYTHONPATH or anything else of the caller's that could
    deselect or bend a case (and poison a base's kept result)."""
    return {k: v for k, v in os.environ.items() if k in KEPT_ENV}
