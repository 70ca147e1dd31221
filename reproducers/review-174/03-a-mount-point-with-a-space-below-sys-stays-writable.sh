#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py _mounts_under, _read_only_view): /proc/self/mountinfo escapes a space
# in a mount point as `\040` (tab \011, newline \012, backslash \134); _mounts_under returns the field as written, the
# remount of "/sys/fs/cgroup/a\040b" fails (ENOENT), its return value is not looked at, and kernel_settings_writable()
# checks core_pattern alone: a mount at or below /sys or /proc/sys whose path holds such a character stays writable
# for the re-runs while the seal holds itself sealed. Shown here with a procfs mounted at "/sys/fs/cgroup/a b" for
# the run (unmounted on exit): the sealed audit's root re-run writes core_pattern through it (the value it read).
# Correct: every mount at or below the two trees is read-only (mount points unescaped), or the audit re-runs nothing.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
point="/sys/fs/cgroup/review-174 a b"
[ -e "$point" ] && { echo "setup: $point exists"; exit 2; }
cleanup() { umount "$point" 2>/dev/null; rmdir "$point" 2>/dev/null; printf '%s\n' "$was" > "$core"; }
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
mkdir "$point" 2>/dev/null || { echo "setup: cannot make a folder under /sys/fs/cgroup here"; exit 2; }
mount -t proc proc "$point" || { echo "setup: could not mount a procfs at $point"; exit 2; }
POINT="$point" python - <<'PY'
import os
import subprocess
import sys

from harness.history.rerun.sealed import Sealed

under = os.path.join(os.environ["POINT"], "sys/kernel/core_pattern")
RERUN = r"""
import sys
def write(p):
    value = open(p).read()
    try:
        with open(p, "w") as f:
            f.write(value)   # the same value: a hostile re-run would write '|/its/program'
        return "written"
    except OSError as exc:
        return exc.strerror
print("/proc/sys/kernel/core_pattern:", write("/proc/sys/kernel/core_pattern"))
print("below /sys, a space in its mount point:", write(sys.argv[1]))
"""
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    child = subprocess.run([sys.executable, "-S", "-c", RERUN, under], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip())
    if child.returncode != 0:
        print("setup failed: the re-run did not run")
        sys.exit(2)
if "mount point: written" in child.stdout:
    print("defect: a mount below /sys stayed writable in the seal's namespace (its mount point escaped in mountinfo), "
          "and the re-run wrote core_pattern through it while the audit held itself sealed")
    sys.exit(1)
print("ok: the mount below /sys was read-only for the re-run")
sys.exit(0)
PY
