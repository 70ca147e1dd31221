"""A root audit's re-runs kept from the kernel's own helpers (F-0584).

Root needs no capability to write /proc/sys/kernel/core_pattern: with `|/path/prog` there, the next crash of any
process has the kernel start prog, root with every capability and without no_new_privs, outside every seal, free to
attach to the audit. A container's runtime mounts /proc/sys read-only; a VM or bare-metal runner does not. So before
its first re-run a root audit takes a mount namespace of its own (its re-runs inherit it) in which /proc/sys and /sys,
every mount below them too, are read-only, and takes out of its bounding set the capabilities that could undo that
(CAP_SYS_ADMIN) or reach the kernel another way (a module, raw I/O, kexec, BPF, perf). Where any of it fails the
write stays, :func:`kernel_settings_writable` says so, and the audit re-runs nothing.
"""

from __future__ import annotations

import os
import sys

CORE_PATTERN = "/proc/sys/kernel/core_pattern"
READ_ONLY_TREES = ("/proc/sys", "/sys")
# linux/capability.h: CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_ADMIN, CAP_SYS_BOOT, CAP_PERFMON, CAP_BPF
KERNEL_REACHING = (16, 17, 21, 22, 38, 39)
_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
_CAPBSET_DROP = 24  # PR_CAPBSET_DROP


def kernel_settings_writable(path: str = CORE_PATTERN, root: bool | None = None) -> bool:
    """Whether a program this process starts, run as root, could write the kernel's core-dump helper setting."""
    root = os.geteuid() == 0 if root is None else root
    return root and sys.platform.startswith("linux") and os.access(path, os.W_OK)


def take_kernel_writes_away() -> int | None:
    """For a root process on Linux: /proc/sys and /sys read-only in a mount namespace of its calling thread's own (and
    of what it starts), then the capabilities reaching the kernel out of its bounding set; returns a descriptor of the
    namespace it left, for :func:`give_back` (None when it left none)."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return None
    left = _read_only_view()
    drop_kernel_capabilities()
    return left


def _read_only_view() -> int | None:
    """A mount namespace of this thread's own where every mount at or below /proc/sys and /sys is read-only; a
    descriptor of the one it left, or None where none was made (no CAP_SYS_ADMIN: the check after says so)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        left = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    if libc.unshare(_CLONE_NEWNS) != 0:
        os.close(left)
        return None
    # private first: a remount made here must not reach the machine's namespace (a shared `/` propagates it)
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) == 0:
        for tree in READ_ONLY_TREES:
            libc.mount(tree.encode(), tree.encode(), None, _MS_BIND | _MS_REC, None)
        for point in _mounts_under(READ_ONLY_TREES):
            libc.mount(None, point.encode(), None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY, None)
    return left


def drop_kernel_capabilities() -> None:
    """:data:`KERNEL_REACHING` out of this thread's bounding set: a root program it starts can neither undo the
    read-only view (CAP_SYS_ADMIN) nor reach the kernel otherwise. Never given back: the bounding set only shrinks,
    and the process ends with the audit."""
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    for cap in KERNEL_REACHING:
        prctl(_CAPBSET_DROP, ctypes.c_ulong(cap), 0, 0, 0)


def give_back(left: int | None) -> None:
    """Back into the mount namespace ``left`` (the in-process test runner runs many commands per process): the
    process after the audit sees /proc/sys as the machine does. Its effective set still holds CAP_SYS_ADMIN."""
    if left is None:
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).setns(left, _CLONE_NEWNS)
    finally:
        os.close(left)


def _mounts_under(trees: tuple[str, ...], mountinfo: str = "/proc/self/mountinfo") -> list[str]:
    """Every mount point at or below ``trees`` in this process's namespace (a bind's remount is one mount's alone)."""
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as f:
            points = [line.split()[4] for line in f if len(line.split()) > 4]
    except OSError:
        return []
    return [p for p in points if any(p == t or p.startswith(t + "/") for t in trees)]
