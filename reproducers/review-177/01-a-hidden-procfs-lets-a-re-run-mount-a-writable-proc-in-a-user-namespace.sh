#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py _visible / read_only_targets / still_writable): the view keeps
# read-only only the kernel-filesystem mounts "a path reaches" (read 174's F-0586), and judges only those for
# still_writable(). A procfs that no path reaches - mounted below a mount that another mount now covers (a build
# chroot's /srv/chroot/proc under a /srv/chroot that was mounted over again) - is left read-write in the view. But a
# root re-run keeps what it needs to create a user namespace (no CAP_SYS_ADMIN is asked for that, CAP_SETFCAP lets it
# map its uid 0 to uid 0), and in it a PID and mount namespace of its own. The kernel lets such a namespace mount a
# fresh procfs when ANY procfs in the mount namespace is "fully visible" (fs/namespace.c mount_too_revealing /
# mnt_already_visible: every mount of the namespace counts, reachable or not; rw unless that one is read-only). The
# hidden rw procfs is: the re-run mounts a new, read-write procfs and writes /proc/sys/kernel/core_pattern through
# it - the sysctl allows any euid that is the machine's uid 0, and the user namespace maps 0 to 0. A `|/its/program`
# written there is started by the kernel with every capability, outside the seal (F-0584 reopened).
# Sealed.reachable is None and still_writable() is [] (the hidden mount is not looked at).
# Here: a tmpfs at $D, procfs at $D/proc, another tmpfs over $D (all in the machine's namespace, unmounted on exit).
# The re-run writes back the value core_pattern held (nothing changes; a trap restores it anyway).
# Correct: no program a sealed root audit starts can write core_pattern (every kernel filesystem mount of the view
# read-only, reachable or not, or no user namespace for re-runs), or the audit re-runs nothing.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
D=$(mktemp -d /tmp/review-177-01.XXXXXX) || exit 2
mounted=0
cleanup() {
  [ "$(cat "$core")" = "$was" ] || printf '%s\n' "$was" > "$core"
  if [ "$mounted" -ge 3 ]; then umount "$D"; fi
  if [ "$mounted" -ge 2 ]; then umount "$D/proc"; fi
  if [ "$mounted" -ge 1 ]; then umount "$D"; fi
  rmdir "$D" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
py=$(command -v python) || { echo "setup: no python in the venv"; exit 2; }
# A build chroot's procfs, then its root mounted over again: no path reaches that procfs any more.
mount -t tmpfs review-177-chroot "$D" && mounted=1 || { echo "setup: tmpfs"; exit 2; }
mkdir "$D/proc" && mount -t proc proc "$D/proc" && mounted=2 || { echo "setup: proc"; exit 2; }
mount -t tmpfs review-177-cover "$D" && mounted=3 || { echo "setup: cover"; exit 2; }
"$py" - <<'PY'
import subprocess
import sys

from harness.history.rerun import kernel_reach
from harness.history.rerun.sealed import Sealed

RERUN = r"""
import ctypes, os, tempfile
libc = ctypes.CDLL(None, use_errno=True)
p = "/proc/sys/kernel/core_pattern"
value = open(p).read()
try:
    open(p, "w").close()
    print("own view: written")
except OSError as exc:
    print("own view:", exc.strerror)
if libc.unshare(0x10000000 | 0x00020000 | 0x20000000) != 0:   # CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID
    print("userns: unavailable", os.strerror(ctypes.get_errno()))
    raise SystemExit(0)
for f, v in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", "0 0 1"), ("/proc/self/gid_map", "0 0 1")):
    with open(f, "w") as out:
        out.write(v)
mnt = tempfile.mkdtemp(prefix="review-177-fresh-proc-")
pid = os.fork()
if pid == 0:   # pid 1 of the new PID namespace
    if libc.mount(b"proc", mnt.encode(), b"proc", 0, None) != 0:
        print("fresh procfs:", os.strerror(ctypes.get_errno()))
        os._exit(0)
    print("fresh procfs: mounted")
    try:
        fd = os.open(mnt + "/sys/kernel/core_pattern", os.O_WRONLY)
        os.write(fd, value.encode())   # the same value: a hostile re-run would write '|/its/program'
        os.close(fd)
        print("through a fresh procfs: written")
    except OSError as exc:
        print("through a fresh procfs:", exc.strerror)
    libc.umount2(mnt.encode(), 2)   # MNT_DETACH: its folder is removed below
    os._exit(0)
os.waitpid(pid, 0)
os.rmdir(mnt)
"""
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    print("still_writable():", kernel_reach.still_writable())
    child = subprocess.run([sys.executable, "-S", "-c", RERUN], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip())
    if "own view:" not in child.stdout:
        print("setup failed: the re-run did not run")
        sys.exit(2)
if "own view: written" in child.stdout:
    print("setup failed: the view's own /proc/sys is writable (not the defect shown here)")
    sys.exit(2)
if "userns: unavailable" in child.stdout:
    print("setup failed: this kernel lets no user namespace be made (the defect needs one)")
    sys.exit(2)
if "through a fresh procfs: written" in child.stdout:
    print("defect: the audit held itself sealed (reachable None) while its re-run mounted a fresh read-write procfs "
          "in a user namespace (a hidden procfs left read-write made it 'fully visible') and wrote core_pattern")
    sys.exit(1)
print("ok: the sealed re-run could not write core_pattern through a fresh procfs")
sys.exit(0)
PY
