"""Crash-safe file writes: atomic replace, a repo-wide lock, and a redo log.

A harness command changes several files at once (the ledger and its projections). Each
new file is written to a temp file and fsynced; then a redo log naming every
(temp, destination) pair is written atomically — that is the commit point — and the
renames follow. A process killed at any moment leaves either the old set of files or
a redo log that the next command (under the lock) rolls forward. Never a torn file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from harness.errors import HarnessError


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
    fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    try:
        # mkstemp creates 0600; a file people share through git gets the usual umask mode.
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


def atomic_write(dest: Path, data: bytes) -> None:
    tmp = write_temp(dest, data)
    os.replace(tmp, dest)
    _fsync_dir(dest.parent)


def commit_files(journal: Path, files: dict[Path, bytes]) -> None:
    """Replace all ``files`` as one unit (see the module docstring)."""
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
    try:
        pairs = json.loads(journal.read_bytes())
    except FileNotFoundError:
        return False
    except ValueError:
        # A journal is written atomically, so an unreadable one was never the commit point.
        journal.unlink()
        return False
    for tmp, dest in pairs:
        if os.path.exists(tmp):
            os.replace(tmp, dest)
    for parent in {Path(dest).parent for _, dest in pairs}:
        _fsync_dir(parent)
    journal.unlink()
    _fsync_dir(journal.parent)
    return True


@contextlib.contextmanager
def locked(lock_path: Path) -> Iterator[None]:
    """Serialize harness processes on one repository (advisory, released on process death)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise HarnessError(f"cannot open lock file {lock_path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing drops the flock
