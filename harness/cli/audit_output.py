"""Where `harness audit` puts its JSON document: a file it writes itself (`--output FILE`), or stdout, watched.

A fanned-out job's verdict is the file CI uploads, and the re-run executes the commit's own code as the same
user. A file the shell opened for the audit's stdout before the audit started can be found by that code
(`/proc/<audit>/fd/1`) and a forged verdict renamed over it: the audit then wrote its real verdict into the
unlinked file, and the path said "reproduced" (read 104's F-0364). So:

- ``--output FILE``: nothing is opened before the re-runs. The document is written once they are over — every
  process they started was killed and reaped by then (:func:`harness.runner.run_command`'s reaping runs end each
  before returning; on Linux also those that left the group) — into a temporary file beside FILE, renamed over
  it: what a re-run put at that path meanwhile is replaced. A file already there is removed before anything runs,
  so a verdict of an earlier run never stands for this one.
- stdout: when it is a regular file, its identity is noted before anything runs (device, inode, size, change
  time, and on Linux the path it was opened at) and compared just before the document is written. A file
  unlinked or renamed over, linked away under another name, or written by another process is reported: the
  verdict is "could not run", and on Linux it is also put back at the path (as ``--output`` would write it).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from harness.cli.common import emit_json
from harness.cli.plain_echo import json_text
from harness.errors import HarnessError

_STDOUT_LINK = "/proc/self/fd/1"  # Linux: the path the file open as our stdout was opened at


class JsonOut:
    """Where the document goes, chosen before anything runs (see the module's docstring)."""

    def __init__(self, output: str | None, watch: bool) -> None:
        self.path = Path(output).absolute() if output else None
        self.watch = _StdoutWatch.taken() if watch and self.path is None else None
        self.replaced: str | None = None  # what problem() found
        if self.path is not None:
            _clear(self.path)

    def problem(self) -> str | None:
        """Why the file under stdout cannot carry the verdict (another process replaced or wrote it), or None.
        Asked once every re-run is over, just before :meth:`write`."""
        self.replaced = self.watch.problem() if self.watch is not None else None
        return self.replaced

    def write(self, doc: object) -> str | None:
        """Write ``doc``; a message when a replaced stdout file's path could not be given the verdict back."""
        text = json_text(doc) + "\n"
        if self.path is not None:
            write_atomically(self.path, text)
            return None
        emit_json(doc)
        watch = self.watch
        if watch is None or watch.path is None or self.replaced is None:
            return None
        try:  # the path CI reads: the verdict put back where the shell had it go
            write_atomically(Path(watch.path), text)
        except HarnessError as exc:
            return exc.message
        return None

    def abandon(self) -> None:
        """The command ends without a document: a file a re-run put at FILE meanwhile must not stand for one."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()


def reads_output(output: str | None, files: tuple[str, ...]) -> bool:
    """Whether ``output`` names one of the files --aggregate reads (removed before anything runs, it would be lost)."""
    if not output:
        return False
    target = Path(output).absolute()
    return any(Path(f).absolute() == target or (Path(f).exists() and target.exists() and Path(f).samefile(target))
               for f in files)


def _clear(path: Path) -> None:
    if path.is_dir():
        raise HarnessError(f"--output {path} is a folder: it names the file the JSON document is written to",
                           hint="harness audit … --output harness-verdict.json")
    if not path.parent.is_dir():
        raise HarnessError(f"--output {path}: the folder {path.parent} does not exist",
                           hint="create it first, or name a file in an existing folder")
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise HarnessError(f"--output {path}: an earlier file there could not be removed ({exc.strerror or exc})",
                           hint="name a file the audit may replace") from None


def write_atomically(path: Path, text: str) -> None:
    """``text`` into a new file beside ``path``, renamed over it: whoever reads the path reads all of it or the
    file that was there, and nothing a process did to an earlier file at that path carries over."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _unwritten(path, exc) from None
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # as the shell's redirection would have made it, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _unwritten(path, exc) from None


def _unwritten(path: Path, exc: OSError) -> HarnessError:
    with contextlib.suppress(OSError):
        path.unlink()  # whatever stands there is not this audit's document
    return HarnessError(f"the JSON document could not be written to {path} ({exc.strerror or exc}): no file there "
                        "is this audit's", hint="let the audit write into that folder, and run it again")


@dataclass
class _StdoutWatch:
    identity: tuple[int, int]   # (device, inode) of the file under stdout when the command started
    size: int
    changed: int                # its change time (ns): a write, a link, a chmod set it; no call sets it back
    path: str | None            # the path it was opened at (Linux), while that path still named it
    shared: bool                # stderr is the same file: the command's own lines grow it

    @classmethod
    def taken(cls) -> _StdoutWatch | None:
        """stdout's file now; None for a pipe, a terminal, or a file with no name left (nothing to replace)."""
        try:
            st = os.fstat(1)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink < 1:
            return None
        return cls((st.st_dev, st.st_ino), st.st_size, st.st_ctime_ns, _named((st.st_dev, st.st_ino)),
                   _same_file(2, (st.st_dev, st.st_ino)))

    def problem(self) -> str | None:
        where = self.path or "the file stdout was redirected to"
        try:
            st = os.fstat(1)
        except OSError as exc:
            return f"stdout is closed ({exc.strerror})"
        if (st.st_dev, st.st_ino) != self.identity:
            return f"stdout is no longer {where}"
        if st.st_nlink < 1:
            return f"{where} was removed, or another file renamed over it, while the re-runs ran"
        if self.path is not None and not _same_file(self.path, self.identity):
            return (f"{where} names another file than the one stdout was redirected to: one was renamed over it "
                    "while the re-runs ran")
        if not self.shared and (st.st_size, st.st_ctime_ns) != (self.size, self.changed):
            return f"{where} was written to, linked or changed by another process while the re-runs ran"
        return None


def _named(identity: tuple[int, int]) -> str | None:
    try:
        path = os.readlink(_STDOUT_LINK)
    except OSError:
        return None  # not Linux: only the link count, size and change time are compared
    return path if os.path.isabs(path) and _same_file(path, identity) else None


def _same_file(what: int | str, identity: tuple[int, int]) -> bool:
    try:
        st = os.fstat(what) if isinstance(what, int) else os.stat(what)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == identity
