#!/usr/bin/env bash
# Defect (harness/history/rerun/sealed.py reachable_after_the_drop; docs/ci.md): an audit run as root drops
# CAP_SYS_PTRACE from the bounding set and sets no_new_privs, then holds itself out of its re-runs' reach
# (Sealed.reachable None: the re-runs run; docs/ci.md: "an audit run as root is out of reach either way"). But a
# root re-run still writes /proc/sys/kernel/core_pattern wherever /proc/sys is writable (a VM or bare-metal runner,
# not a container, whose runtime mounts /proc/sys read-only): writing needs uid 0 alone, no capability. A pattern
# `|/path/prog` makes the kernel run prog, on the next crash of any process, as a usermode helper: root with every
# capability (CapEff 000001ffffffffff, NoNewPrivs 0, seen here), outside the seal, free to attach to the audit.
# This reproducer shows the seal's own code calling itself sealed while a child of the sealed process writes the
# kernel setting; it writes back the value it read (nothing on the machine changes).
# Correct: a root audit whose re-runs can write a kernel usermode-helper setting re-runs nothing and says why, as it
# does for any other way a re-run could still reach it (Sealed.reachable), or takes that write away first.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (needs root on Linux).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
[ -w /proc/sys/kernel/core_pattern ] || { echo "setup: /proc/sys is read-only here (a container): the defect cannot occur"; exit 2; }
python - <<'PY'
import subprocess
import sys

from harness.history.rerun.sealed import Sealed

with Sealed() as seal:   # as harness audit --rerun arms it before its first re-run
    seal.arm()
    child = subprocess.run([sys.executable, "-S", "-c", """
p = '/proc/sys/kernel/core_pattern'
value = open(p).read()
try:
    with open(p, 'w') as f:
        f.write(value)           # the same value: a re-run would write '|/its/program'
except OSError as exc:
    print('refused:', exc)
    raise SystemExit(3)
print('wrote', repr(value.strip()))
"""], capture_output=True, text=True)
    print("re-run (a child of the sealed audit):", (child.stdout + child.stderr).strip())
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:120])
        sys.exit(0)
    if child.returncode == 3:
        print("ok: the re-run cannot write the kernel's usermode-helper setting")
        sys.exit(0)
    if child.returncode != 0:
        print("setup failed: the child did not run")
        sys.exit(2)
    print("defect: the audit holds itself sealed (reachable None) while its re-run writes /proc/sys/kernel/core_pattern")
    sys.exit(1)
PY
