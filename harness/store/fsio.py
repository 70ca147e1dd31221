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


def _refuse_dir(dest: Path) -> None:
    # os.replace cannot put a file where a folder stands; saying so before anything is
    # written (or promised in the redo log) keeps the repository usable.
    if os.path.isdir(dest) and not os.path.islink(dest):
        raise HarnessError(f"{dest} is a folder, where the harness keeps a file",
                           hint=f"move it away (`mv {dest} {dest}.bak`) and run the command again")


def atomic_write(dest: Path, data: bytes) -> None:
    _refuse_dir(dest)
    tmp = write_temp(dest, data)
    try:
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(dest.parent)


def commit_files(journal: Path, files: dict[Path, bytes]) -> None:
    """Replace all ``files`` as one unit (see the module docstring)."""
    for dest in (*files, journal):
        _refuse_dir(dest)
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
    journal.unlink()
    _fsync_dir(journal.parent)
    return True


_held: dict[str, bool] = {}  # lock file -> held exclusively, by this process


@contextlib.contextmanager
def locked(lock_path: Path, shared: bool = False) -> Iterator[None]:
    """Serialize harness processes on one repository (advisory, released on process death).

    Writers take the lock exclusively; readers take it ``shared`` so that they never see a
    write half done. Taking it again in the process that holds it is a no-op: a second
    flock on a new descriptor would wait for ourselves forever.
    """
    key = os.path.abspath(lock_path)
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
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        _held[key] = not shared
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
