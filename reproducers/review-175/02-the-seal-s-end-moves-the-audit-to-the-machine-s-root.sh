#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py give_back, called by Sealed.__exit__): a root audit leaves its
# mount namespace with setns(CLONE_NEWNS), and setns into a mount namespace sets the caller's working directory AND
# its root directory to that namespace's root (mntns_install: set_fs_pwd, set_fs_root). unshare() at arm() kept both;
# the way back does not. After a root audit the process's cwd is `/` (the in-process test runner, which runs many
# commands per process and is why give_back exists, runs its next command from `/`), and an audit run inside a chroot
# (a build chroot) finds itself outside it, at the machine's `/`, after the seal.
# Nothing on the machine changes (no kernel setting is touched).
# Correct: after the seal ends the process's working directory (and root) are what they were before arm().
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
work=$(mktemp -d /tmp/review-175-02.XXXXXX) || exit 2
trap 'rmdir "$work" 2>/dev/null' EXIT
trap 'exit 2' INT TERM HUP
cd "$work" || exit 2
python - <<'PY'
import os
import sys

from harness.history.rerun.sealed import Sealed

before = os.getcwd()
namespace = os.readlink("/proc/self/ns/mnt")
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.namespace is None:
        print("setup: the seal made no mount namespace here (no CAP_SYS_ADMIN?)")
        sys.exit(2)
after = os.getcwd()
back = os.readlink("/proc/self/ns/mnt")
print(f"cwd before the seal: {before}; after it: {after}; mount namespace before {namespace}, after {back}")
if back != namespace:
    print("setup: the seal did not go back to the mount namespace it left (another defect)")
    sys.exit(2)
if after != before:
    print("defect: the seal's end moved the auditing process's working directory to the namespace's root")
    sys.exit(1)
print("ok: the auditing process's working directory is what it was")
sys.exit(0)
PY
