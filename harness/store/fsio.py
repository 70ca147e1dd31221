"""Crash-safe file writes: atomic replace, a repo-wide lock, and a redo log.

A harness command changes several files at once (the ledger and its projections). Each
new file is written to a temp file and fsynced; then a redo log naming every
(temp, destination) pair is written atomically — that is the commit point — and the
renames follow. A process killed at any moment leaves either the old set of files or
a redo log that the next command (under the lock) rolls forward. Never a torn file.
The writer itself renames from what it holds, never from the log read back: `git clean -fdX`
may remove the log (and the temps) under it, and it must still finish, or fail saying so.

The log also holds the digest of what each destination held when the write was computed
and of what it will hold: a log is rolled forward only onto those files. A branch switch,
a reset or a pull between the crash and the next command leaves other files there, and a
write computed from the old ones would overwrite them: such a log is dropped with its temps
(:class:`NotApplied` says so), and the files stay as git left them.
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
from harness.errors import HarnessError, LockWaitRanOut
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
    os.fchmod(fd, 0o666 & ~_umask())  # created 0600; a file people share through git gets the usual umask mode
    _fill(fd, name, data)
    return Path(name)


def _fill(fd: int, name: str, data: bytes) -> None:
    """``data`` written to the new file ``name`` open at ``fd`` and fsynced; the file removed if that fails."""
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _refuse_dir(dest: Path) -> None:
    # os.replace cannot put a file where a folder stands; saying so before anything is
    # written (or promised in the redo log) keeps the repository usable.
    if os.path.isdir(dest) and not os.path.islink(dest):
        raise HarnessError(f"{dest} is a folder, where the harness keeps a file",
                           hint=f"move it away (`mv {dest} {dest}.bak`) and run the command again")


def atomic_write(dest: Path, data: bytes) -> None:
    """``data`` into a temp beside ``dest``, renamed over it. `git clean -fdX` does not wait for the store's lock and
    may remove the temp (or its ignored folder) before the rename: the bytes are still in hand, so it is written
    again; one that keeps going is refused with the cause, nothing written (self-found F-0395: a raw OS error)."""
    _refuse_dir(dest)
    tmp = write_temp(dest, data)
    step()  # a test may kill the process here: a temp is left, the destination untouched
    for _ in range(_RENAME_TRIES):
        try:
            os.replace(tmp, dest)
        except FileNotFoundError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            tmp = write_temp(dest, data)  # the same write, not a step of its own
            continue
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _fsync_dir(dest.parent)
        return
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    raise HarnessError(f"cannot write {dest}: its temporary file was removed while it was written, "
                       f"{_RENAME_TRIES} times; nothing was written",
                       hint="stop what cleans files in the repository (a `git clean -fdX` in a loop?) while harness "
                            "commands run, then run the command again")


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
    from harness.core.sha256 import sha256

    writes: list[tuple[str, str, str | None, str, bytes]] = []
    try:
        for dest, data in files.items():
            prior = _digest(dest)  # read before the temp exists: what this write was computed from
            writes.append((str(write_temp(dest, data)), str(dest), prior, sha256(data).hexdigest(), data))
        atomic_write(journal, json.dumps([[tmp, dest, prior, new] for tmp, dest, prior, new, _ in writes]).encode())
    except BaseException:
        # Before the journal exists nothing was promised: leave the old files, and no litter.
        for tmp, *_ in writes:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    _finish(journal, writes)


_RENAME_TRIES = 3  # a temp put back and removed again this often is something cleaning in a loop: fail, say so


def _finish(journal: Path, writes: list[tuple[str, str, str | None, str, bytes]]) -> None:
    """The renames this process promised in ``journal``, done from the (temp, destination, prior digest, new
    digest, bytes) in hand, never from the log read back: `git clean -fdX` does not wait for the lock and may
    remove the log (in the ignored `.harness/local/`) or a temp between the commit point and a rename. The log on
    disk is for a crash alone (:func:`roll_forward`, by the next command). Raises unless every destination holds
    its new bytes: a command never reports a write done that is not."""
    # F-0368's rule, for this writer too: a destination that changed since the write was computed (a checkout
    # beside the command) is kept. Judged on the digests alone: whether a temp is still there says nothing here.
    changed = [dest for _, dest, prior, new, _ in writes if _digest(dest) not in (prior, new)]
    if changed:
        _drop(journal, [(tmp, dest) for tmp, dest, _, _, _ in writes])
        raise NotApplied(f"the write was not applied: its files changed while it was made ({changed[0]} among "
                         "them); they are kept as they are now",
                         hint="something replaced them while the command ran (a branch switch, a reset, a pull): "
                              "run the command again if its change is still wanted")
    for tmp, dest, _, _, data in writes:
        _rename(journal, tmp, dest, data)
    for parent in {os.path.dirname(dest) for _, dest, _, _, _ in writes}:
        _fsync_dir(Path(parent))
    unfinished = [dest for _, dest, _, new, _ in writes if _digest(dest) != new]
    if unfinished:
        raise HarnessError(f"the harness write was not finished: {', '.join(unfinished)} does not hold what this "
                           "command wrote; something removed or replaced its files while the command ran",
                           hint="stop what cleans or replaces files in the repository (a `git clean -fdX` in a loop?) "
                                "while harness commands run, then check the task (`harness status`) and run the "
                                "command again if its change is missing")
    with contextlib.suppress(FileNotFoundError):  # a clean may have removed it: nothing is pending either way
        journal.unlink()


def _rename(journal: Path, tmp: str, dest: str, data: bytes) -> None:
    """``tmp`` renamed onto ``dest``, written back from ``data`` first if a clean removed it; a temp that
    keeps going is left to :func:`_finish`'s check."""
    for _ in range(_RENAME_TRIES):
        _put_back(tmp, data)
        try:
            os.replace(tmp, dest)
            return
        except FileNotFoundError:
            if os.path.lexists(tmp):
                raise _blocked(journal, dest, "No such file or directory") from None
        except OSError as exc:
            raise _blocked(journal, dest, exc.strerror) from None


def _blocked(journal: Path, dest: str, why: str | None) -> HarnessError:
    """A rename the write promised cannot be done: what stands in the way, and how it gets finished."""
    if os.path.exists(journal):
        # The write was promised: the journal is kept (and the new content in its temps).
        then = f"run any harness command: it finishes the write recorded in {journal}"
    else:
        then = "run the command again"
    return HarnessError(f"cannot finish a harness write: {dest}: {why}",
                        hint=f"move {dest} out of the way (e.g. `mv {dest} {dest}.bak`) and {then}")


def _put_back(tmp: str, data: bytes) -> None:
    """Write ``tmp`` again if it went while this process wrote the others (`git clean -fdX` removes temps, which
    git ignores, and does not wait for the lock): the bytes are still in hand, and the write they were promised in
    is finished whole instead of losing one of its files."""
    if os.path.lexists(tmp):
        return
    os.makedirs(os.path.dirname(tmp), exist_ok=True)  # a folder of ignored files alone goes with them
    _fill(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666 & ~_umask()), tmp, data)


def _digest(path: Path | str) -> str | None:
    """The sha-256 of the regular file at ``path``, None when nothing is there; anything else there (a
    folder, a FIFO, a link) is named by its kind, never read (a FIFO would block)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable: {exc.errno}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return f"not a file: {stat.S_IFMT(st.st_mode)}"
        from harness.core.sha256 import sha256

        h = sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return str(h.hexdigest())
    finally:
        os.close(fd)


def sweep_temps(folder: Path) -> None:
    """Remove temp files a killed writer left (call under the lock, with no journal pending)."""
    for leftover in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


class NotApplied(HarnessError):
    """A redo log dropped because its files changed since it was written (see the module docstring): what
    the front end tells the user; the command goes on, on the files as they are."""


def roll_forward(journal: Path) -> bool:
    """Finish the renames an interrupted :func:`commit_files` promised, if its destinations still hold what
    the write was computed from (or already what it writes). True if there was a log to finish. Raises
    :class:`NotApplied` when they changed since: the log and its temps are gone then, the files untouched."""
    if os.path.isdir(journal):
        raise HarnessError(f"{journal} is a folder, where the harness keeps its redo log",
                           hint=f"the harness never writes a folder there: remove it (`rm -r {journal}`)")
    from harness.store import bounded

    raw = bounded.read(journal, "state")
    if raw is None:
        return False
    try:
        entries = _entries(json.loads(raw))
    except (ValueError, RecursionError):
        # A journal is written atomically, so an unreadable one was never the commit point.
        journal.unlink()
        return False
    pending = [(tmp, dest) for tmp, dest, _, _ in entries if os.path.exists(tmp)]
    if not pending:  # every rename was done (the log's unlink is not fsynced: a crash may bring it back)
        journal.unlink()
        return True
    changed = _changed_since(entries)
    if changed:
        _drop(journal, pending)
        raise NotApplied(f"an interrupted write was not applied: its files changed since ({changed} among them); "
                         "they are kept as they are now",
                         hint="a harness command killed after its commit point, then the files replaced (a branch "
                              "switch, a reset, a pull): run the command again if its change is still wanted")
    for tmp, dest in pending:
        try:
            os.replace(tmp, dest)
        except OSError as exc:
            # Said once, instead of failing the same way in every command.
            raise _blocked(journal, dest, exc.strerror) from None
    for parent in {Path(dest).parent for _, dest, _, _ in entries}:
        _fsync_dir(parent)
    # Not fsynced: a crash that brings the redo log back only has it rolled forward again, and its
    # temps are gone (renamed, durably, above), so that changes nothing. An fsync per write saved.
    journal.unlink()
    return True


_UNKNOWN = object()  # a log written before it held digests: its destinations cannot be checked


def _entries(value: object) -> list[tuple[str, str, object, object]]:
    """The (temp, destination, prior digest, new digest) of each file a redo log names."""
    def entry(e: object) -> tuple[str, str, object, object]:
        if isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e):
            return e[0], e[1], _UNKNOWN, _UNKNOWN
        if (isinstance(e, list) and len(e) == 4 and isinstance(e[0], str) and isinstance(e[1], str)
                and (e[2] is None or isinstance(e[2], str)) and isinstance(e[3], str)):
            return e[0], e[1], e[2], e[3]
        raise ValueError("not a (temp, destination, prior digest, new digest) entry")

    if not isinstance(value, list):
        raise ValueError("not a list of entries")
    return [entry(e) for e in value]


def _changed_since(entries: list[tuple[str, str, object, object]]) -> str | None:
    """A destination that holds neither what the write was computed from nor what it writes (a file
    renamed already must hold the latter), or None. Read only when a log is pending: after a crash."""
    for tmp, dest, prior, new in entries:
        if new is _UNKNOWN:
            continue
        now = _digest(dest)
        if now != new and (now != prior or not os.path.exists(tmp)):
            return dest
    return None


def _drop(journal: Path, pending: list[tuple[str, str]]) -> None:
    # The temps first: a crash between leaves a log whose remaining temps are judged the same way again.
    for tmp, _ in pending:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    with contextlib.suppress(FileNotFoundError):  # a clean may have removed it while its writer ran
        journal.unlink()


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


def _acquire(fd: int, lock_path: Path, shared: bool, on_wait: Callable[[str], None] | None,
             deadline: float | None = None, told: bool = False) -> None:
    """flock, but a wait that speaks: after NOTICE_AFTER seconds it names the holder once to ``on_wait``
    (the front end's printer: the store never prints; without one the wait is silent; ``told``: it was
    named already), and HARNESS_LOCK_TIMEOUT bounds it (exit 2), as does ``deadline`` (a time.monotonic()
    reading: an agent hook's, below its host's timeout), whichever comes first."""
    op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    limit: float | None = None  # the time.monotonic() reading at which the wait ends
    start, pause, given = time.monotonic(), 0.01, None
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if limit is None:  # read only when there is a wait: a bad value fails only then
            given = _timeout()
            limit = start + (float("inf") if given is None else given)
            if deadline is not None and deadline < limit:
                limit, given = deadline, None
        now = time.monotonic()
        if now >= limit:
            raise _gave_up(lock_path, given)
        if not told and now - start >= NOTICE_AFTER:
            told = True
            if on_wait is not None:
                on_wait(f"harness: waiting for the lock ({lock_path}), held by {holder(lock_path)}; "
                         f"still waiting (set {TIMEOUT_VAR}=SECONDS to give up)")
        time.sleep(min(pause, limit - now))
        pause = min(pause * 2, 0.1)


def _gave_up(lock_path: Path, timeout: float | None) -> LockWaitRanOut:
    """The wait ran out: HARNESS_LOCK_TIMEOUT's ``timeout``, or (None) an agent hook's deadline."""
    if timeout is None:
        return LockWaitRanOut(f"gave up waiting for the harness lock, held by {holder(lock_path)}: an agent hook waits for "
                            "it only within the time its host gives the hook",
                            hint="let that command finish (or stop it); the hook asks again next time")
    return LockWaitRanOut(f"gave up after {timeout:g}s waiting for the harness lock, held by {holder(lock_path)}",
                        hint=f"let that command finish (or stop it), then run this one again; "
                             f"{TIMEOUT_VAR} sets how long to wait")


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
def locked(lock_path: Path, shared: bool = False, on_wait: Callable[[str], None] | None = None,
           folder: Path | None = None, deadline: float | None = None) -> Iterator[None]:
    """Serialize harness processes on one repository (advisory, released on process death).

    Writers take the lock exclusively; readers take it ``shared`` so that they never see a
    write half done. Taking it again in the process that holds it is a no-op: a second
    flock on a new descriptor would wait for ourselves forever. ``on_wait`` hears, once, that
    the lock is held by another process (the command's context carries it: harness.context).
    ``folder``: a folder that cleaning the work tree cannot remove (the store's: `.harness`, which holds
    tracked files), locked too, after the file: `git clean -fdX` or `rm -rf .harness/local` removes the lock
    file under a writer, and the next process would make a new one and take it at once. ``deadline``: see
    :func:`_acquire`.
    """
    key = os.path.abspath(lock_path)
    _held = context.process().locks_held  # by this process: a second flock of ours would wait for us
    if key in _held:
        if not shared and not _held[key]:
            raise RuntimeError("a shared harness lock cannot be upgraded to exclusive")
        yield
        return
    fds = _take(lock_path, shared, on_wait, deadline)
    if fds is None:  # a reader where nobody may write: nothing to wait for
        yield
        return
    try:
        if folder is not None:
            fds.extend(_take_folder(folder, lock_path, shared, on_wait, deadline))
        _held[key] = not shared
        if not shared:
            _record_holder(lock_path)
        yield
    finally:
        _held.pop(key, None)
        for fd in fds:
            os.close(fd)  # closing drops the flock


def _take(lock_path: Path, shared: bool, on_wait: Callable[[str], None] | None,
          deadline: float | None) -> list[int] | None:
    """The lock file, flocked: the file the path names once it is ours. One removed or replaced while this
    process waited (a clean of `.harness/local/`) is no lock anyone else will ask for: the new one is taken."""
    told = False
    while True:
        fd = _open_lock(lock_path, shared)
        if fd is None:
            return None
        try:
            _acquire(fd, lock_path, shared, on_wait, deadline, told)
            if _same_file(fd, lock_path):
                return [fd]
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        told = True  # said once per command, whatever file it waits on


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _take_folder(folder: Path, lock_path: Path, shared: bool, on_wait: Callable[[str], None] | None,
                 deadline: float | None) -> list[int]:
    """``folder`` flocked, or nothing where the file system refuses a folder's flock (NFS emulates flock
    with byte-range locks, which a folder opened for reading cannot take): the lock file alone serializes
    there, as it did before."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return []
    try:
        _acquire(fd, lock_path, shared, on_wait, deadline, told=False)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EBADF, errno.EINVAL, errno.ENOLCK, errno.EOPNOTSUPP):
            return []
        raise
    except BaseException:
        os.close(fd)
        raise
    return [fd]


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
