"""The one way the harness reads a file: regular files only, never more than a cap.

Every file the harness reads may have been replaced by anything: a FIFO (a plain read
blocks forever, while holding the store lock), a symlink to ``/dev/zero`` (a plain read
never ends), a gigabyte of comment. So a file is opened without following a final
symlink and without blocking, checked to be a regular file on the open descriptor (no
race between check and read), and read only up to its kind's cap plus one byte: the
cap is enforced while reading, never after.
"""

from __future__ import annotations

import errno
import os
import stat

from harness.core.file_caps import CAPS, MiB, kind_of
from harness.errors import HarnessError

__all__ = ["CAPS", "MiB", "kind_of"]  # with the readers below: callers read the caps from here

# Not typing's TYPE_CHECKING: the agent's guard reads files through this module and imports no typing;
# pathlib is imported only for a path given as text pathlib would spell otherwise.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

_CHUNK = 1 * MiB
_KINDS = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder", stat.S_IFLNK: "a symlink"}


def _as_path(path: Path | str) -> Path | str:
    """``path`` as Path(path) names it: a string already spelled as pathlib spells it (no empty, `.` or
    trailing part) is that very path, and the agent's guard reads its config.yaml without importing pathlib."""
    if isinstance(path, str) and path and "//" not in path and "/./" not in path \
            and not path.startswith("./") and not path.endswith(("/", "/.")):
        return path
    from pathlib import Path

    return Path(path)


def _open(path: Path | str, name: str, follow: bool) -> int | None:
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise HarnessError(f"{name}: cannot read a symlink: the harness reads only regular files (refused)",
                               hint="replace the link with the real file") from None
        raise HarnessError(f"{name}: cannot read: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise HarnessError(f"{name}: cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise HarnessError(f"{name}: cannot read {what}: the harness reads only regular files (refused)",
                           hint="replace it with the real file")
    return fd


def _too_big(name: str, kind: str, cap: int) -> HarnessError:
    size = f"{cap // MiB} MiB" if cap >= MiB else f"{cap} byte"
    return HarnessError(f"{name}: larger than the {size} limit for a {kind} file (refused)",
                        hint="a harness file this large was not written by the harness; restore it from git")


def read(path: Path | str, kind: str, name: str | None = None, follow: bool = False,
         cap: int | None = None) -> bytes | None:
    """The bytes of ``path`` (None when it does not exist), refusing anything but a regular
    file of at most ``CAPS[kind]`` bytes. ``follow``: a file the user named may be a link
    (to a regular file); the harness's own files may not."""
    name = name or str(path)
    cap = CAPS[kind] if cap is None else cap
    fd = _open(_as_path(path), name, follow)
    if fd is None:
        return None
    parts: list[bytes] = []
    got = 0
    try:
        while got <= cap:
            chunk = os.read(fd, min(_CHUNK, cap + 1 - got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise HarnessError(f"{name}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if got > cap:
        raise _too_big(name, kind, cap)
    return b"".join(parts)


def sha256(path: Path | str, kind: str, name: str | None = None) -> str | None:
    """The sha-256 of ``path`` read in chunks (None when missing): a big log in bounded memory."""
    name = name or str(path)
    fd = _open(_as_path(path), name, follow=False)
    if fd is None:
        return None
    h, got = _sha256_for(os.fstat(fd).st_size), 0
    try:
        while chunk := os.read(fd, _CHUNK):
            got += len(chunk)
            if got > CAPS[kind]:
                raise _too_big(name, kind, CAPS[kind])
            h.update(chunk)
    except OSError as exc:
        raise HarnessError(f"{name}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return h.hexdigest()


_SMALL = 1 << 20  # below this, Python's own sha256 hashes faster than hashlib's OpenSSL binding loads (~4 ms)


def _sha256_for(size: int) -> Any:  # hashlib's or harness.core.sha256's object
    """A sha256 object for ``size`` bytes: the same digest either way, the cheaper to get."""
    if size < _SMALL:
        from harness.core.sha256 import sha256

        return sha256()
    import hashlib  # here, not at the top: the agent's guard reads a file through this module

    return hashlib.sha256()


def append(path: Path | str, data: bytes, name: str | None = None) -> None:
    """Append ``data`` to ``path`` (created if missing) in one write, refusing anything but a
    regular file: opening a FIFO to write blocks until a reader comes, a symlink would write
    wherever it points."""
    name = name or str(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise HarnessError(f"{name}: cannot write through a symlink: the harness writes only regular files "
                               "(refused)", hint="replace the link with the real file") from None
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads
            raise HarnessError(f"{name}: cannot write to a FIFO (named pipe): the harness writes only regular files "
                               "(refused)", hint="remove it; the harness creates the file") from None
        raise HarnessError(f"{name}: cannot write: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
            raise HarnessError(f"{name}: cannot write to {what}: the harness writes only regular files (refused)",
                               hint="remove it; the harness creates the file")
        os.write(fd, data)
    except OSError as exc:
        raise HarnessError(f"{name}: cannot write: {exc.strerror}") from None
    finally:
        os.close(fd)
