#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py give_back, Sealed.__exit__): an audit whose uid is 0 inside a user
# namespace that has no mount namespace of its own (`unshare -r harness audit --rerun`, a CI step run under
# `unshare --user --map-root-user`) makes its view fine: unshare(CLONE_NEWNS) asks CAP_SYS_ADMIN of its own user
# namespace, which it holds, the remounts succeed, Sealed.reachable is None and the re-runs run. But the mount
# namespace it left belongs to the parent user namespace, and setns() into it asks CAP_SYS_ADMIN THERE: EPERM. So
# give_back raises OSError out of Sealed.__exit__ after every re-run and the report are done - the command whose
# verdict was computed ends in an internal error instead (cli/audit.py returns inside `with sealed()`; the raise
# replaces that return). The view could have been left or never needed leaving (the process ends with the audit);
# arm() could tell beforehand that it cannot come back.
# Correct: an armed seal whose re-runs ran ends without an error (or arm() declines the view it cannot leave).
# Nothing on the machine changes (the user namespace and view die with the process).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
command -v unshare >/dev/null || { echo "setup: needs unshare (util-linux)"; exit 2; }
py=$(command -v python) || { echo "setup: no python in the venv"; exit 2; }
unshare --user --map-root-user -- true 2>/dev/null || { echo "setup: no user namespace can be made here"; exit 2; }
unshare --user --map-root-user -- "$py" - <<'PY'
import os
import sys

from harness.history.rerun.sealed import Sealed

if os.geteuid() != 0:
    print("setup failed: not uid 0 in the user namespace")
    sys.exit(2)
seal = Sealed()
try:
    with seal:
        seal.arm()
        print("armed; reachable:", seal.reachable and seal.reachable[:120])
        if seal.namespace is None:
            print("ok: no view was made here (nothing to leave)")
            sys.exit(0)
        ran = seal.reachable is None
except OSError as exc:
    print("Sealed.__exit__ raised:", exc)
    if ran:
        print("defect: the re-runs ran (reachable None) and the audit then failed leaving its view")
        sys.exit(1)
    sys.exit(0)
print("ok: the seal ended without an error")
sys.exit(0)
PY
