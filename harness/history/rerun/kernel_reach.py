"""A root audit's re-runs kept from the kernel's own helpers (F-0584).

Root needs no capability to write /proc/sys/kernel/core_pattern: with `|/path/prog` there, the next crash of any
process has the kernel start prog, root with every capability and without no_new_privs, outside every seal, free to
attach to the audit. A container's runtime mounts /proc/sys read-only; a VM or bare-metal runner does not. So before
its first re-run a root audit takes a mount namespace of its own (its re-runs inherit it) in which every mount at or
below /proc/sys and /sys, and every procfs, sysfs or other kernel filesystem mounted anywhere else (a build chroot's
/srv/chroot/proc: read 174's F-0585), is read-only; :mod:`kernel_caps` takes the capabilities that could undo that.
Where any of it fails, :func:`kernel_settings_writable` says so, and the audit re-runs nothing.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NamedTuple

CORE_PATTERN = "/proc/sys/kernel/core_pattern"
MOUNTINFO = "/proc/self/mountinfo"
READ_ONLY_TREES = ("/proc/sys", "/sys")
# Filesystems of the kernel's own settings and helpers, wherever mounted; /proc itself stays writable (a program writes
# its own /proc/self files), its sys/ is bound read-only over it.
KERNEL_FILESYSTEMS = frozenset({"proc", "sysfs", "binfmt_misc", "debugfs", "tracefs", "securityfs", "configfs", "bpf",
                                "cgroup", "cgroup2", "efivarfs", "pstore", "fusectl"})
_CLONE_NEWNS, _CLONE_FS = 0x00020000, 0x00000200
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
_OPTION_FLAGS = {"nosuid": 2, "nodev": 4, "noexec": 8, "noatime": 1024, "nodiratime": 2048, "relatime": 1 << 21,
                 "strictatime": 1 << 24}  # MS_NOSUID ... MS_STRICTATIME, as mountinfo names them


def kernel_settings_writable(path: str = CORE_PATTERN, root: bool | None = None, mountinfo: str = MOUNTINFO) -> bool:
    """Whether a program this process starts, run as root, could write the kernel's core-dump helper setting, or
    any mount the view keeps read-only is writable (a remount that failed: read 174's F-0586)."""
    root = os.geteuid() == 0 if root is None else root
    if not root or not sys.platform.startswith("linux"):
        return False
    return os.access(path, os.W_OK) or bool(still_writable(mountinfo))


class Left(NamedTuple):
    """What the view left, to go back to: the mount namespace, this thread's root folder and working folder (setns
    puts both at the namespace's root: read 175's F-0589)."""
    namespace: int
    root: int
    cwd: int


def take_kernel_writes_away() -> Left | None:
    """For a root process on Linux: /proc/sys and /sys read-only in a mount namespace of its calling thread's own (and
    of what it starts); what it left, for :func:`give_back` (None when it left nothing). The capabilities that could
    undo it are :mod:`kernel_caps`'s to take."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return None
    return _read_only_view()


def _read_only_view() -> Left | None:
    """A mount namespace of this thread's own where every mount :func:`read_only_targets` names is read-only; what
    it left, or None where none was made (no CAP_SYS_ADMIN: the check after says so)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        left = Left(*(os.open(path, os.O_RDONLY | os.O_CLOEXEC) for path in ("/proc/self/ns/mnt", "/", ".")))
    except OSError:
        return None
    if libc.unshare(_CLONE_NEWNS) != 0:
        _close(left)
        return None
    # private first: a remount made here must not reach the machine's namespace (a shared `/` propagates it)
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) == 0:
        # Each one read-only before anything is bound over it: a bind over a read-write mount hides it from every
        # path, not from the kernel, which lets a user namespace mount a fresh procfs beside it (read 177's F-0592).
        _remount_read_only(libc)
        libc.mount(b"/proc/sys", b"/proc/sys", None, _MS_BIND | _MS_REC, None)  # a folder of /proc, no mount of its own
        _remount_read_only(libc)
    return left


def _remount_read_only(libc: Any) -> None:
    """Every mount :func:`read_only_targets` names read-only, keeping the flags it has (a user namespace's locked
    nosuid, nodev, noexec or atime flags refuse a remount that would clear them)."""
    for mount in _visible(MOUNTINFO):
        if _kept_read_only(mount):
            flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _kept_flags(mount.options)
            libc.mount(None, os.fsencode(mount.point), None, flags, None)


def _kept_flags(options: str) -> int:
    return sum(flag for name, flag in _OPTION_FLAGS.items() if name in options.split(","))


def give_back(left: Left | None) -> bool:
    """Back into the mount namespace, root and working folder ``left`` (the in-process test runner runs many commands
    per process): the process after the audit sees /proc/sys as the machine does. setns refuses a thread that shares
    its filesystem state with another (a runner's reader thread still alive: read 175's F-0590), so this thread takes
    its own first. Whether it went back: an audit run as root of a user namespace cannot return to the namespace its
    parent's owns (read 177's F-0593) and stays in its view, which it ends with; nothing is raised after a verdict."""
    if left is None:
        return True
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(_CLONE_FS) != 0 or libc.setns(left.namespace, _CLONE_NEWNS) != 0:
            return False
        os.fchdir(left.root)
        os.chroot(".")
        os.fchdir(left.cwd)
        return True
    finally:
        _close(left)


def _close(left: Left) -> None:
    for fd in left:
        os.close(fd)


def read_only_targets(mountinfo: str = MOUNTINFO) -> list[str]:
    """The mount points a re-run's view keeps read-only, as paths (mountinfo's escapes undone: read 174's F-0586)."""
    return [m.point for m in _visible(mountinfo) if _kept_read_only(m)]


def still_writable(mountinfo: str = MOUNTINFO) -> list[str]:
    """Those of :func:`read_only_targets` a program can write through, and every kernel filesystem no path reaches
    (read 177's F-0592): their mount is not read-only."""
    visible = {m.id for m in _visible(mountinfo)}
    return [m.point for m in _mounts(mountinfo) if "rw" in m.options.split(",")
            and (_kept_read_only(m) if m.id in visible else m.fstype in KERNEL_FILESYSTEMS)]


def _kept_read_only(m: Mount) -> bool:
    if m.point == "/proc":
        return False
    return m.fstype in KERNEL_FILESYSTEMS or any(m.point == t or m.point.startswith(t + "/") for t in READ_ONLY_TREES)


class Mount(NamedTuple):
    id: str
    parent: str
    point: str
    options: str  # the mount's own (ro or rw first), not its filesystem's
    fstype: str


def _visible(mountinfo: str) -> list[Mount]:
    """The mounts of a mountinfo file a path reaches: not one another mount covers at its point (a bind over it), nor
    one below such a mount (the copies a recursive bind made are what the path reaches)."""
    mounts = _mounts(mountinfo)
    ids = {m.id: m for m in mounts}
    covered = {m.parent for m in mounts if m.parent in ids and ids[m.parent].point == m.point}

    def seen(m: Mount, depth: int = 0) -> bool:
        if m.id in covered or depth > len(mounts):
            return False
        under = ids.get(m.parent)  # the mount holding m's mount point: past those m was mounted over, at its point
        while under is not None and under is not m and under.point == m.point:
            under = ids.get(under.parent)
        return under is None or under is m or seen(under, depth + 1)

    return [m for m in mounts if seen(m)]


def _mounts(mountinfo: str) -> list[Mount]:
    """Each line of a mountinfo file (proc(5)): id, parent id, major:minor, root, mount point, options, optional
    fields, `-`, filesystem type, source, its options."""
    try:
        with open(mountinfo, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        head, dash, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if dash and len(fields) >= 6 and rest:
            out.append(Mount(fields[0], fields[1], _unescaped(fields[4]), fields[5], rest[0]))
    return out


def _unescaped(point: str) -> str:
    """A mountinfo path with its octal escapes (space \\040, tab, newline, backslash) undone."""
    import re

    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), point)
