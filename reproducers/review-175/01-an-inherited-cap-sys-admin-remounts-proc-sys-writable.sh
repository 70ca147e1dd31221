#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py drop_kernel_capabilities, KERNEL_REACHING): a root audit takes
# CAP_SYS_ADMIN (and MODULE, RAWIO, BOOT, PERFMON, BPF) out of its bounding set only. A root exec gives the new
# program its bounding set OR its inheritable set (P'(permitted) = P(bounding) | P(inheritable) for root), so where
# the audit's inheritable set holds CAP_SYS_ADMIN (an older container runtime fills it with the container's
# capabilities - the same case sealed.py lowers CAP_SYS_PTRACE for, read 170's F-0577 - or `capsh --inh`, `setpriv
# --inh-caps`) every re-run holds CAP_SYS_ADMIN: it remounts the seal's read-only /proc/sys read-write and writes
# core_pattern. kernel_settings_writable() looks only at the view as it stands at arm() and
# children_hold_ptrace() only at CAP_SYS_PTRACE: Sealed.reachable is None and the re-runs run.
# The re-run here writes back the value core_pattern held (nothing on the machine changes; restored on exit anyway).
# Correct: no program a sealed root audit starts holds CAP_SYS_ADMIN (lowered from the inheritable and ambient sets
# too), or the audit re-runs nothing.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
command -v setpriv >/dev/null || { echo "setup: needs setpriv (util-linux)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
cleanup() { [ "$(cat "$core")" = "$was" ] || printf '%s\n' "$was" > "$core"; }
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
py=$(command -v python) || { echo "setup: no python in the venv"; exit 2; }
# The audit started with CAP_SYS_ADMIN inheritable, as an older Docker's --privileged / --cap-add SYS_ADMIN leaves it.
setpriv --inh-caps +sys_admin -- "$py" - <<'PY'
import subprocess
import sys

from harness.history.rerun.sealed import Sealed

RERUN = r"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
p = "/proc/sys/kernel/core_pattern"
value = open(p).read()
def write():
    try:
        with open(p, "w") as f:
            f.write(value)   # the same value: a hostile re-run would write '|/its/program'
        return "written"
    except OSError as exc:
        return exc.strerror
print("before the remount:", write())
MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
rc = libc.mount(None, b"/proc/sys", None, MS_REMOUNT | MS_BIND, None)
print("remount /proc/sys rw:", "done" if rc == 0 else os.strerror(ctypes.get_errno()))
print("after the remount:", write())
print([l for l in open("/proc/self/status") if l.startswith(("CapInh", "CapPrm", "CapBnd"))])
"""
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    child = subprocess.run([sys.executable, "-S", "-c", RERUN], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip())
    if child.returncode != 0 or "before the remount:" not in child.stdout:
        print("setup failed: the re-run did not run")
        sys.exit(2)
if "after the remount: written" in child.stdout:
    print("defect: the audit held itself sealed (reachable None) while its re-run, holding CAP_SYS_ADMIN from the "
          "inheritable set, remounted /proc/sys read-write and wrote the kernel's core_pattern")
    sys.exit(1)
print("ok: the sealed re-run could not make /proc/sys writable")
sys.exit(0)
PY
