"""Crash-safe file writes: atomic replace, a repo-wide lock, and a redo log.

A harness command changes several files at once (the ledger and its projections). Each
new file is written to a temp file and fsynced; then a redo log naming every
(temp, destination) pair is written atomically — that is the commit point — and the
renames follow. A process killed at any moment leaves either the old set of files or
a redo log that the next command (under the lock) rolls forward. Never a torn file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from harness import context
from harness.errors import HarnessError
from harness.store.crashpoint import step


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_temp(dest: Path, data: bytes) -> Path:
    """Write ``data`` to a fsynced temp file beside ``dest`` and return its path."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    from harness import scratch_files

    fd, name = scratch_files.create(dest.parent, f".{dest.name}.", ".tmp")
    try:
        # Created 0600; a file people share through git gets the usual umask mode.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def _refuse_dir(dest: Path) -> None:
    # os.replace cannot put a file where a folder stands; saying so before anything is
    # written (or promised in the redo log) keeps the repository usable.
    if os.path.isdir(dest) and not os.path.islink(dest):
        raise HarnessError(f"{dest} is a folder, where the harness keeps a file",
                           hint=f"move it away (`mv {dest} {dest}.bak`) and run the command again")


def atomic_write(dest: Path, data: bytes) -> None:
    _refuse_dir(dest)
    tmp = write_temp(dest, data)
    step()  # a test may kill the process here: a temp is left, the destination untouched
    try:
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(dest.parent)


def holds(dest: Path, data: bytes) -> bool:
    """``dest`` is a regular file (not a link, not a FIFO) whose bytes are exactly ``data``."""
    try:
        fd = os.open(dest, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
            return False
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(len(data) + 1) == data
    finally:
        os.close(fd)


def commit_files(journal: Path, files: dict[Path, bytes]) -> None:
    """Replace all ``files`` as one unit (see the module docstring).

    A file that already holds its new bytes is left alone: the set ends the same, without a
    temp file, an fsync and a rename for it (a transition changes two of a task's files, not
    all of them), and git sees no new stat data to hash again. A set of one file is written
    by :func:`atomic_write`, without the redo log."""
    for dest in (*files, journal):
        _refuse_dir(dest)
    files = {dest: data for dest, data in files.items() if not holds(dest, data)}
    if not files:
        return
    if len(files) == 1 and not os.path.lexists(journal):
        # One file is replaced as one unit by its rename alone: the redo log, its fsync and its folder's
        # would add nothing (a crash leaves the old file or the new, and at most a temp the next writer
        # sweeps). Not while a log is pending: its renames come first (callers roll it forward first).
        ((dest, data),) = files.items()
        atomic_write(dest, data)
        return
    pairs: list[tuple[str, str]] = []
    try:
        for dest, data in files.items():
            pairs.append((str(write_temp(dest, data)), str(dest)))
        atomic_write(journal, json.dumps(pairs).encode())
    except BaseException:
        # Before the journal exists nothing was promised: leave the old files, and no litter.
        for tmp, _ in pairs:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    roll_forward(journal)


def sweep_temps(folder: Path) -> None:
    """Remove temp files a killed writer left (call under the lock, with no journal pending)."""
    for leftover in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def roll_forward(journal: Path) -> bool:
    """Finish the renames an interrupted :func:`commit_files` promised. True if it did any."""
    if os.path.isdir(journal):
        raise HarnessError(f"{journal} is a folder, where the harness keeps its redo log",
                           hint=f"the harness never writes a folder there: remove it (`rm -r {journal}`)")
    from harness.store import bounded

    raw = bounded.read(journal, "state")
    if raw is None:
        return False
    try:
        pairs = json.loads(raw)
        if not (isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2
                                                and all(isinstance(x, str) for x in p) for p in pairs)):
            raise ValueError("not a list of (temp, destination) pairs")
    except (ValueError, RecursionError):
        # A journal is written atomically, so an unreadable one was never the commit point.
        journal.unlink()
        return False
    for tmp, dest in pairs:
        if os.path.exists(tmp):
            try:
                os.replace(tmp, dest)
            except OSError as exc:
                # The write was promised: keep the journal (and the new content in tmp), and
                # say what stands in the way instead of failing the same way in every command.
                raise HarnessError(
                    f"cannot finish an interrupted harness write: {dest}: {exc.strerror}",
                    hint=f"move {dest} out of the way (e.g. `mv {dest} {dest}.bak`) and run any harness "
                         f"command: it finishes the write recorded in {journal}") from None
    for parent in {Path(dest).parent for _, dest in pairs}:
        _fsync_dir(parent)
    # Not fsynced: a crash that brings the redo log back only has it rolled forward again, and its
    # temps are gone (renamed, durably, above), so that changes nothing. An fsync per write saved.
    journal.unlink()
    return True


NOTICE_AFTER = 2.0  # seconds of silent waiting before saying who holds the lock
TIMEOUT_VAR = "HARNESS_LOCK_TIMEOUT"


def _timeout() -> float | None:
    raw = os.environ.get(TIMEOUT_VAR, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):  # also refuses nan
        raise HarnessError(f"{TIMEOUT_VAR}={raw!r} is not a number of seconds",
                           hint=f"e.g. {TIMEOUT_VAR}=30, or unset it to wait as long as it takes")
    return value


def _acquire(fd: int, lock_path: Path, shared: bool, on_wait: Callable[[str], None] | None) -> None:
    """flock, but a wait that speaks: after NOTICE_AFTER seconds it names the holder once to ``on_wait``
    (the front end's printer: the store never prints; without one the wait is silent), and
    HARNESS_LOCK_TIMEOUT bounds it (exit 2)."""
    op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    limit, start, told, pause = None, time.monotonic(), False, 0.01
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if limit is None:  # read only when there is a wait: a bad value fails only then
            given = _timeout()
            limit = float("inf") if given is None else given
        waited = time.monotonic() - start
        if waited >= limit:
            raise HarnessError(f"gave up after {limit:g}s waiting for the harness lock, held by {holder(lock_path)}",
                               hint=f"let that command finish (or stop it), then run this one again; "
                                    f"{TIMEOUT_VAR} sets how long to wait")
        if not told and waited >= NOTICE_AFTER:
            told = True
            if on_wait is not None:
                on_wait(f"harness: waiting for the lock ({lock_path}), held by {holder(lock_path)}; "
                         f"still waiting (set {TIMEOUT_VAR}=SECONDS to give up)")
        time.sleep(min(pause, max(0.0, limit - waited)))
        pause = min(pause * 2, 0.1)


def _holder_file(lock_path: Path) -> Path:
    return lock_path.with_name(lock_path.name + ".holder")


def _command() -> str:
    # The program and its subcommand only: the rest of argv may carry a secret, and so may a word the
    # user names (`evidence custom.NAME`): a word is kept only as a command's name is spelled (F-0157).
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    words = ["harness" if prog == "__main__.py" else prog]  # python -m harness
    for arg in sys.argv[1:]:
        if len(words) == 3 or arg.startswith("-") or not (arg.replace("-", "").replace("_", "").isalpha() and arg.islower()):
            break
        words.append(arg)
    return " ".join(words)[:200]


def _record_holder(lock_path: Path) -> None:
    """Say who holds the lock, for those who wait (best effort: never fails the command)."""
    info = json.dumps({"pid": os.getpid(), "command": _command()}).encode()
    with contextlib.suppress(OSError):
        fd = os.open(_holder_file(lock_path),
                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        try:
            os.write(fd, info)
        finally:
            os.close(fd)


def holder(lock_path: Path) -> str:
    """Who holds the lock, as far as the holder recorded it (readers do not record)."""
    from harness.store import bounded

    try:
        info = json.loads(bounded.read(_holder_file(lock_path), "state") or b"{}")
        pid, command = int(info["pid"]), str(info["command"])[:200]
    except (HarnessError, ValueError, KeyError, TypeError):
        return "another harness process"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "another harness process (a reader, or one that left no name)"
    except PermissionError:
        pass
    return f"pid {pid} ({command})"


@contextlib.contextmanager
def locked(lock_path: Path, shared: bool = False, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Serialize harness processes on one repository (advisory, released on process death).

    Writers take the lock exclusively; readers take it ``shared`` so that they never see a
    write half done. Taking it again in the process that holds it is a no-op: a second
    flock on a new descriptor would wait for ourselves forever. ``on_wait`` hears, once, that
    the lock is held by another process (the command's context carries it: harness.context).
    """
    key = os.path.abspath(lock_path)
    _held = context.process().locks_held  # by this process: a second flock of ours would wait for us
    if key in _held:
        if not shared and not _held[key]:
            raise RuntimeError("a shared harness lock cannot be upgraded to exclusive")
        yield
        return
    fd = _open_lock(lock_path, shared)
    if fd is None:  # a reader where nobody may write: nothing to wait for
        yield
        return
    try:
        _acquire(fd, lock_path, shared, on_wait)
        _held[key] = not shared
        if not shared:
            _record_holder(lock_path)
        yield
    finally:
        _held.pop(key, None)
        os.close(fd)  # closing drops the flock


def _open_lock(lock_path: Path, shared: bool) -> int | None:
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if shared and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return None
        folder = lock_path.parent
        if exc.errno in (errno.EEXIST, errno.ENOTDIR):
            raise HarnessError(f"{folder} is not a folder: the harness keeps its lock and redo log there",
                               hint=f"move it away (`mv {folder} {folder}.bak`); the harness recreates the folder") from None
        raise HarnessError(f"cannot open lock file {lock_path}: {exc.strerror}",
                           hint=f"{folder} must be a folder this user can write (per-clone harness state)") from None
