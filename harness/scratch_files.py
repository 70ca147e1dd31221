"""Temporary files beside the file they stand in for, made without the tempfile module.

`tempfile` brings `shutil` and `random` (and, through shutil, the compression modules): about 6 ms
of import, paid on every command that measures the source tree or appends to a ledger, for one
name and one `open`. What those commands need is two calls: make a fresh file, copy git's index.
"""

from __future__ import annotations

import errno
import os

_ATTEMPTS = 100  # tempfile's TMP_MAX: a fresh name taken that often means something else is wrong
_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


def create(folder: str | os.PathLike[str], prefix: str, suffix: str = "") -> tuple[int, str]:
    """(an open descriptor, the path) of a new file in ``folder``: created here and now (never a
    file or link that was there), readable by its owner only — what `tempfile.mkstemp` makes."""
    for _ in range(_ATTEMPTS):
        path = os.path.join(os.fspath(folder), f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(path, _FLAGS, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no unused temporary name in {folder} after {_ATTEMPTS} tries", prefix)


def copy_with_times(source: str, fd: int) -> None:
    """Copy the file ``source`` into the open, empty file ``fd`` and give it ``source``'s access and
    modification times (as `shutil.copy2` does: git's check for an entry edited in the same second
    as its index was written compares with the index file's mtime)."""
    with open(source, "rb") as src:
        while chunk := src.read(_CHUNK):
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view):]
        st = os.fstat(src.fileno())
    os.utime(fd, ns=(st.st_atime_ns, st.st_mtime_ns))
