#!/usr/bin/env bash
# Defect (harness/history/rerun/kernel_reach.py, F-0584's fix): a root audit makes the kernel's usermode-helper
# SETTING read-only (/proc/sys/kernel/core_pattern, in a mount namespace of its own) but not the PROGRAM that setting
# already names. Ubuntu (GitHub's hosted runners) ships `|/usr/share/apport/apport ...`, systemd machines
# `|/usr/lib/systemd/systemd-coredump ...`: a file root may write without any capability (CAP_DAC_OVERRIDE stays).
# A root re-run rewrites that file and crashes; the kernel starts it with every capability, without no_new_privs,
# outside the seal, and it reads the non-dumpable audit's memory (it could attach and decide the verdict).
# Sealed.reachable is None: the re-runs run. kernel_settings_writable() looks at the setting alone.
# This reproducer stands in for apport with a root-owned program of its own named by core_pattern (set for the run,
# restored on exit whatever happens).
# Correct: a root audit whose re-runs could rewrite a program the kernel starts (a core_pattern pipe's program)
# re-runs nothing (could not run, exit 2) or takes that away too.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (needs root on Linux, /proc/sys writable).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
[ "$(uname -s)" = Linux ] || { echo "setup: needs Linux"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (the defect is a root audit's)"; exit 2; }
core=/proc/sys/kernel/core_pattern
[ -w "$core" ] || { echo "setup: /proc/sys is read-only here (a container)"; exit 2; }
was=$(cat "$core") || exit 2
work=$(mktemp -d /tmp/review-174-01.XXXXXX) || exit 2
chmod 700 "$work"
restore() { printf '%s\n' "$was" > "$core"; rm -rf "$work"; }
trap restore EXIT
trap 'exit 2' INT TERM HUP
# the machine's crash reporter (apport's stand-in): root's, started by the kernel on a crash
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' > "$work/crash-reporter"; chmod 755 "$work/crash-reporter"
printf '|%s %%p\n' "$work/crash-reporter" > "$core" || { echo "setup: could not set core_pattern"; exit 2; }
WORK="$work" python - <<'PY'
import os
import subprocess
import sys
import time

from harness.history.rerun.sealed import Sealed

work = os.environ["WORK"]
# The hostile re-run, root as the sealed audit starts it: it rewrites the program core_pattern names (a file), then
# crashes. It writes no kernel setting.
RERUN = r"""
import os, signal, sys
work, audit = sys.argv[1], os.getppid()
pattern = open("/proc/sys/kernel/core_pattern").read().strip()
try:
    open("/proc/sys/kernel/core_pattern", "w").write(pattern + "\n")
    print("re-run: core_pattern writable")
except OSError as exc:
    print("re-run: core_pattern not writable:", exc.strerror)
try:
    open(f"/proc/{audit}/environ", "rb").read(1)
    print("re-run itself: reads the audit's memory")
except OSError as exc:
    print("re-run itself: cannot read the audit's memory:", exc.strerror)
program = pattern[1:].split()[0]
with open(program, "w") as f:
    f.write(f'''#!/bin/sh
cat >/dev/null
grep -E '^(CapEff|NoNewPrivs)' /proc/self/status > {work}/helper.out
if head -c 1 /proc/{audit}/environ >/dev/null 2>&1; then echo audit-memory:read >> {work}/helper.out
else echo audit-memory:refused >> {work}/helper.out; fi
''')
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGSEGV)
"""
out = os.path.join(work, "helper.out")
with Sealed() as seal:  # as harness audit --rerun arms it before its first re-run
    seal.arm()
    if seal.reachable is not None:
        print("ok: the sealed audit re-runs nothing here:", seal.reachable[:160])
        sys.exit(0)
    child = subprocess.run([sys.executable, "-S", "-c", RERUN, work], capture_output=True, text=True)
    print((child.stdout + child.stderr).strip(), f"(exit {child.returncode})")
    for _ in range(50):
        if os.path.exists(out) and "audit-memory" in open(out).read():
            break
        time.sleep(0.1)
said = open(out).read() if os.path.exists(out) else ""
print("started by the kernel for the re-run's crash:", said.strip().replace("\n", "; ") or "(nothing of the re-run's)")
if "audit-memory:read" in said or "CapEff:\t000001ffffffffff" in said:
    print("defect: the audit held itself sealed (reachable None) while its re-run had the kernel start a program of "
          "its own with every capability, which read the non-dumpable audit's memory")
    sys.exit(1)
if not said:
    print("ok: no program of the re-run's was started by the kernel")
    sys.exit(0)
print("ok: the program ran without the capabilities to reach the audit")
sys.exit(0)
PY
