"""The capabilities that reach the kernel, kept from every program a sealed audit starts (F-0584, read 175's F-0588).

A program root executes holds its bounding set and its inheritable set; any program keeps its ambient set. With
CAP_SYS_ADMIN a re-run remounts /proc/sys writable again (or mounts a fresh procfs) and names its own program as the
kernel's core-dump helper; with CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_BOOT, CAP_PERFMON or CAP_BPF it reaches the
kernel, and from there the audit, another way; with CAP_SETUID it borrowed another user's identity to leave the view
(read 176's F-0591). An older Docker filled a `--cap-add SYS_ADMIN` container's inheritable
set, which is why lowering the bounding set alone was not enough (F-0588).
"""

from __future__ import annotations

import os
import sys

# linux/capability.h: CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_ADMIN, CAP_SYS_BOOT, CAP_PERFMON, CAP_BPF
KERNEL_REACHING = (16, 17, 21, 22, 38, 39)
# CAP_SETGID, CAP_SETUID: with them a root re-run took an ordinary user's filesystem identity, passed the check for
# following that user's process's /proc/PID/root, and reached the machine's /proc/sys below it (read 176's F-0591)
OTHER_IDENTITIES = (6, 7)
DROPPED = KERNEL_REACHING + OTHER_IDENTITIES
KERNEL_MASK = sum(1 << cap for cap in DROPPED)
STATUS = "/proc/self/status"
_CAPBSET_DROP, _CAP_AMBIENT, _CAP_AMBIENT_LOWER = 24, 47, 3  # PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER
_CAPABILITY_V3 = 0x20080522  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set


def drop_kernel_capabilities(status_file: str = STATUS) -> bool:
    """:data:`DROPPED` out of this thread's bounding, ambient and inheritable sets, never given back (the
    process ends with the audit); whether a program started from now on could still hold one (root without
    CAP_SETPCAP keeps its bounding set)."""
    if not sys.platform.startswith("linux"):
        return False
    lower(DROPPED)
    return children_hold(status_file)


def lower(caps: tuple[int, ...]) -> None:
    """``caps`` out of this thread's bounding set (root, with CAP_SETPCAP; refused otherwise, and read after), its
    ambient set and its inheritable set: every set a program it starts could get them from."""
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    for cap in caps:
        prctl(_CAPBSET_DROP, ctypes.c_ulong(cap), 0, 0, 0)
        prctl(_CAP_AMBIENT, ctypes.c_ulong(_CAP_AMBIENT_LOWER), ctypes.c_ulong(cap), 0, 0)
    lower_inheritable(caps)


def children_hold(status_file: str = STATUS, root: bool | None = None, bounding: bool = True) -> bool:
    """Whether a program this process starts may hold a kernel-reaching capability: from its ambient set, or, run as
    root, its inheritable set or (``bounding``) its bounding set. An ordinary user's program gains nothing from the
    other two under no_new_privs, which the seal sets. Unknown: yes."""
    held = capabilities(status_file)
    if held is None:
        return True
    root = os.geteuid() == 0 if root is None else root
    sets = ("CapAmb", "CapInh", "CapBnd") if root and bounding else ("CapAmb", "CapInh") if root else ("CapAmb",)
    return any(held.get(name, 0) & KERNEL_MASK for name in sets)


def capabilities(status_file: str = STATUS) -> dict[str, int] | None:
    """The capability sets of /proc/self/status (CapInh, CapPrm, CapEff, CapBnd, CapAmb) and its NoNewPrivs flag;
    None when unreadable."""
    try:
        with open(status_file, encoding="ascii") as f:
            return {line.split(":")[0]: int(line.split()[1], 16) for line in f
                    if line.startswith(("Cap", "NoNewPrivs:"))}
    except (OSError, ValueError, IndexError):
        return None


def lower_inheritable(caps: tuple[int, ...]) -> None:
    """``caps`` out of this thread's inheritable set (capget, then capset: lowering needs no privilege)."""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        header, data = Header(_CAPABILITY_V3, 0), (Data * 2)()
        if libc.capget(ctypes.byref(header), data) != 0:
            return
        for cap in caps:
            data[cap // 32].inheritable &= ~(1 << cap % 32)
        libc.capset(ctypes.byref(header), data)
    except (OSError, AttributeError):
        return  # no capset here: what stayed is read after
