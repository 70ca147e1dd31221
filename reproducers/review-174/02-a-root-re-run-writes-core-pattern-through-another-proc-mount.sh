#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py _read_only_view, READ_ONLY_TREES): a root audit makes read-only the
# mounts at or below /proc/sys and /sys only. Any other procfs mount on the machine (a build chroot's
# /srv/chroot/proc, mock's or pbuilder's, a container rootfs's /proc) reaches the same kernel settings: a root re-run
# writes /that/proc/sys/kernel/core_pattern there. kernel_settings_writable() checks /proc/sys/kernel/core_pattern
# alone, so Sealed.reachable is None and the re-runs run.
# This reproducer mounts a procfs in a chroot-like folder of its own for the run (unmounted on exit), and has the
# sealed audit's re-run write core_pattern back as it found it (nothing on the machine changes).
# Correct: no procfs (or sysfs) mount a re-run can see leaves a kernel setting writable, or the audit re-runs nothing.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
work=$(mktemp -d /tmp/review-174-02.XXXXXX) || exit 2
mkdir -p "$work/chroot/proc"
cleanup() { umount "$work/chroot/proc" 2>/dev/null; printf '%s\n' "$was" > "$core"; rmdir "$work/chroot/proc" "$work/chroot" "$work" 2>/dev/null; }
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
mount -t proc proc "$work/chroot/proc" || { echo "setup: could not mount a procfs"; exit 2; }
WORK="$work" python - <<'PY'
import os
import subprocess
import sys

from harness.history.rerun.sealed import Sealed

other = os.path.join(os.environ["WORK"], "chroot/proc/sys/kernel/core_pattern")
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
print("chroot's core_pattern:", write(sys.argv[1]))
"""
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    child = subprocess.run([sys.executable, "-S", "-c", RERUN, other], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip())
    if child.returncode != 0:
        print("setup failed: the re-run did not run")
        sys.exit(2)
if "chroot's core_pattern: written" in child.stdout:
    print("defect: the audit held itself sealed (reachable None) while its re-run wrote the kernel's core_pattern "
          "through another procfs mount")
    sys.exit(1)
print("ok: the re-run could write core_pattern through no procfs mount")
sys.exit(0)
PY
