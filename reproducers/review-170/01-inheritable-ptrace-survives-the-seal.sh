#!/usr/bin/env bash
# Defect (harness/history/rerun/sealed.py Sealed.arm/_drop_ptrace_from_children and ancestors_exposed, harness/
# history/rerun/isolation.py RerunGuard.exposed): the seal keeps CAP_SYS_PTRACE from the audit's re-runs by dropping
# it from the capability BOUNDING set only. A capability in the audit's INHERITABLE set (a container started with
# --cap-add SYS_PTRACE by a Docker/containerd that still fills CapInh, a systemd unit, setpriv/capsh) survives exec
# for root regardless of the bounding set (P'(permitted) = P(inh) & F(inh) | F(perm) & P(bnd)), and an ambient one
# for any user. The re-run then holds CAP_SYS_PTRACE: not-dumpable is no obstacle to it, it attaches to the auditor
# and makes it _exit(0) (read 168's F-0574 open again). ancestors_exposed() reads "the audit holds CAP_SYS_PTRACE"
# as "its re-runs lack what its ancestors hold" and says nothing (no note); docs/ci.md says an audit run as root is
# out of reach either way.
# Controls: the same commit without the injection is refused (exit 1); with the injection but no inheritable
# capability (the plain root audit) the attach is refused and the audit exits 1 — the seal works there.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (needs root, setpriv, Linux x86_64).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "setup: needs Linux x86_64"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (to give the audit an inheritable CAP_SYS_PTRACE with setpriv)"; exit 2; }
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
audit() { rc=0; "$@" harness audit --rerun --base "$base" --to HEAD >"$D/$log" 2>&1 || rc=$?; }
# control 1: without the injection the check really fails in CI's re-run (refused)
touch "$T/no-inject"; log=control1.log; audit setpriv --inh-caps +sys_ptrace
[ "$rc" = 1 ] && grep -q "does not reproduce" "$D/control1.log" || { echo "setup failed: control audit exited $rc"; tail -5 "$D/control1.log"; exit 2; }
rm -f "$T/no-inject"
# control 2: a plain root audit (nothing inheritable): the seal holds, the attach is refused, exit 1
log=control2.log; audit env
[ "$rc" = 1 ] || { echo "setup: the plain root audit already exited $rc (not this defect)"; tail -5 "$D/control2.log"; exit 2; }
# the defect: the same audit with CAP_SYS_PTRACE in its inheritable set (as a container runtime may start it)
log=audit.log; audit setpriv --inh-caps +sys_ptrace
tail -3 "$D/audit.log"
noted=no; grep -q "nothing on this system keeps a process from debugging" "$D/audit.log" && noted=yes
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun exited 0 though check.py failed in the re-run (plain root audit: exit 1): the re-run"
  echo "        inherited CAP_SYS_PTRACE past the bounding-set drop, attached to the non-dumpable auditor and made"
  echo "        it _exit(0); exposure note printed: $noted"
  exit 1
fi
echo "fixed: audit exited $rc (the re-run held no CAP_SYS_PTRACE, or the audit refused to re-run)"; exit 0
