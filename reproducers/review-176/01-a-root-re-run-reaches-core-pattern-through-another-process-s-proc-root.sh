#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py _read_only_view, kernel_caps.KERNEL_REACHING): a root audit's view is
# a mount namespace of its own in which /proc/sys is read-only, but a re-run keeps CAP_SETUID/CAP_SETGID and is in the
# machine's PID namespace. /proc/<pid>/root of any process outside the view is a magic link into THAT process's mount
# namespace - the machine's, where /proc/sys is writable. Following it asks only ptrace_may_access(READ_FSCREDS): the
# caller's fs uid/gid equal the target's, the target dumpable, its capabilities a subset of the caller's. Any
# ordinary user's process on the machine qualifies (here a stand-in `sleep` as nobody; on CI the runner user's shell
# that ran `sudo harness audit`, dbus's messagebus, ...): the re-run sets its fs uid/gid to that user (setfsuid keeps
# its capabilities), opens /proc/<pid>/root as a directory, sets its fs uid back to 0 and opens
# proc/sys/kernel/core_pattern below it for writing - through the machine's rw procfs, written as root, so a
# `|/its/program` there has the kernel start the program with every capability outside the seal.
# kernel_settings_writable() looks only at the view's own /proc/sys and mounts: Sealed.reachable is None and it runs.
# The re-run here writes back the value core_pattern held (nothing on the machine changes; restored on exit anyway).
# Correct: no program a sealed root audit starts can write core_pattern by any path, or the audit re-runs nothing.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
command -v setpriv >/dev/null || { echo "setup: needs setpriv (util-linux)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
stand_in=
cleanup() {
  [ "$(cat "$core")" = "$was" ] || printf '%s\n' "$was" > "$core"
  [ -n "$stand_in" ] && { kill "$stand_in" 2>/dev/null; wait "$stand_in" 2>/dev/null; }
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
py=$(command -v python) || { echo "setup: no python in the venv"; exit 2; }
# An ordinary user's process in the machine's mount namespace (CI: the runner user's shell that ran sudo).
setpriv --reuid=65534 --regid=65534 --clear-groups -- sleep 300 &
stand_in=$!
sleep 0.3
[ "$(awk '/^Uid:/{print $2}' /proc/$stand_in/status 2>/dev/null)" = 65534 ] || { echo "setup: no stand-in process"; exit 2; }
STAND_IN=$stand_in "$py" - <<'PY'
import subprocess
import sys

from harness.history.rerun.sealed import Sealed

RERUN = r"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
p = "/proc/sys/kernel/core_pattern"
value = open(p).read()
try:
    open(p, "w").close()
    print("own view: written")
except OSError as exc:
    print("own view:", exc.strerror)
pid = os.environ["STAND_IN"]
st = os.stat(f"/proc/{pid}")
libc.setfsgid(st.st_gid); libc.setfsuid(st.st_uid)   # the stand-in's user, for the ptrace access check only
try:
    machine = os.open(f"/proc/{pid}/root", os.O_PATH | os.O_DIRECTORY)
except OSError as exc:
    machine = None
    print("/proc/<pid>/root:", exc.strerror)
finally:
    libc.setfsuid(0); libc.setfsgid(0)
try:
    if machine is None:
        raise OSError(13, "not followed")
    fd = os.open("proc/sys/kernel/core_pattern", os.O_WRONLY, dir_fd=machine)
    os.write(fd, value.encode())   # the same value: a hostile re-run would write '|/its/program'
    os.close(fd)
    print("through /proc/<pid>/root: written")
except OSError as exc:
    print("through /proc/<pid>/root:", exc.strerror)
"""
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    child = subprocess.run([sys.executable, "-S", "-c", RERUN], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip())
    if "own view:" not in child.stdout:
        print("setup failed: the re-run did not run")
        sys.exit(2)
if "own view: written" in child.stdout:
    print("setup failed: the view's own /proc/sys is writable (not the defect shown here)")
    sys.exit(2)
if "through /proc/<pid>/root: written" in child.stdout:
    print("defect: the audit held itself sealed (reachable None) while its re-run, read-only /proc/sys in its own "
          "view, wrote the kernel's core_pattern through /proc/<pid>/root of an ordinary user's process")
    sys.exit(1)
print("ok: the sealed re-run could not reach the machine's /proc/sys")
sys.exit(0)
PY
