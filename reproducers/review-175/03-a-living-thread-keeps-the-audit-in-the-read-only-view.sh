#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py give_back): setns(CLONE_NEWNS) refuses (EINVAL) a thread whose
# fs_struct is shared, i.e. any process where another thread made after arm() (they share the arming thread's fs) is
# still alive at Sealed.__exit__: the runner's daemon reader threads (harness/runner.py _Drain), a thread pool. Its
# return value is ignored: the seal ends, says nothing, and the auditing process stays in the seal's mount namespace
# with /proc/sys and /sys read-only (the in-process test runner, which runs many commands per process and is why
# give_back exists, runs every later command there, a root `sysctl -w` failing with EROFS).
# Nothing on the machine changes (no kernel setting is touched; only access() is asked).
# Correct: the seal either goes back to the namespace it left or says it could not (raises / reports it).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
[ -w /proc/sys/kernel/core_pattern ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
python - <<'PY'
import os
import sys
import threading

from harness.history.rerun.sealed import Sealed

namespace = os.readlink("/proc/self/ns/mnt")
done = threading.Event()
try:
    with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
        seal.arm()
        if seal.namespace is None:
            print("setup: the seal made no mount namespace here (no CAP_SYS_ADMIN?)")
            sys.exit(2)
        # a thread of the audit's, as the runner's pipe readers are, still alive when the seal ends
        threading.Thread(target=done.wait, daemon=True).start()
except Exception as exc:  # a fix that says it could not go back
    print(f"ok: the seal's end said it could not go back: {type(exc).__name__}: {exc}")
    sys.exit(0)
finally:
    done.set()
back = os.readlink("/proc/self/ns/mnt")
writable = os.access("/proc/sys/kernel/core_pattern", os.W_OK)
print(f"mount namespace before the seal {namespace}, after it {back}; /proc/sys writable after it: {writable}")
if back != namespace or not writable:
    print("defect: the seal ended silently with the auditing process still in its read-only mount namespace")
    sys.exit(1)
print("ok: the auditing process is back in the namespace it left")
sys.exit(0)
PY
