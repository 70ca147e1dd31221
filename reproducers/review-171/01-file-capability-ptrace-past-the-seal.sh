#!/usr/bin/env bash
# Defect (harness/history/rerun/sealed.py Sealed.arm, _drop_ptrace_from_children, children_hold_ptrace): an audit
# run as a user that is not root cannot drop CAP_SYS_PTRACE from its bounding set (no CAP_SETPCAP: EPERM), and
# children_hold_ptrace() ignores that set for a non-root audit ("a user's bounding set reaches only a setuid
# program"). But exactly that is what a re-run can exec: a program with file capabilities (setcap cap_sys_ptrace+ep)
# or a setuid-root one (sudo: GitHub's hosted runners give their user passwordless sudo) starts with
# P'(permitted) = F(permitted) & P(bounding) — CAP_SYS_PTRACE. The seal sets no PR_SET_NO_NEW_PRIVS, so that exec
# gains the capability, attaches to the non-dumpable auditor and makes it _exit(0) (read 168's F-0574 open again);
# Sealed.reachable stays None and the job runs.
# Controls: without the injection the re-run is refused (exit 1); with the injection but a copy of python WITHOUT the
# file capability, the attach is refused and the audit exits 1 — the seal works there.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (needs root for setcap/setpriv, Linux x86_64).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT; chmod 755 "$T"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "setup: needs Linux x86_64"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (setcap, and setpriv to run the audit as nobody)"; exit 2; }
for t in setpriv setcap; do command -v $t >/dev/null || { echo "setup: needs $t"; exit 2; }; done
id nobody >/dev/null 2>&1 || { echo "setup: needs user nobody"; exit 2; }
# an interpreter nobody can run, of the harness venv's version, with the venv's packages (its own may sit under /root)
ver=$("$here/.venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])') || { echo "setup: no venv python"; exit 2; }
purelib=$("$here/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
sysp=""; for c in /usr/bin/python$ver /usr/local/bin/python$ver; do [ -x "$c" ] && sysp=$(readlink -f "$c") && break; done
[ -n "$sysp" ] || { echo "setup: needs a system python$ver that user nobody can run"; exit 2; }
"$sysp" -m venv --without-pip "$T/venv" || { echo "setup: cannot make a venv with $sysp"; exit 2; }
echo "import site; site.addsitedir('$purelib')" > "$T/venv/lib/python$ver/site-packages/zz-harness.pth"
printf '#!%s\nimport sys\nfrom harness.cli.launch import entry\nsys.exit(entry())\n' "$T/venv/bin/python3" > "$T/venv/bin/harness"
chmod +x "$T/venv/bin/harness"
cp "$sysp" "$T/ptracer" && cp "$sysp" "$T/plain" || { echo "setup: cannot copy $sysp"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p .harness
printf '__pycache__/\n' > .gitignore
cat > check.py <<'PY'
# passes on the laptop; in CI's re-run (a worktree under harness-rerun-*) it fails — and, unless the control's
# marker file exists, first execs a program with a file capability that makes `harness audit --rerun` call _exit(0)
import ctypes, os, sys
if "harness-rerun-" not in os.getcwd():
    sys.exit(0)
T = "@T@"
if not os.path.exists(f"{T}/no-inject") and not os.environ.get("INJECTING"):
    helper = f"{T}/plain" if os.path.exists(f"{T}/plain-only") else f"{T}/ptracer"
    os.environ["INJECTING"] = "1"
    os.execv(helper, [helper, "-S", os.path.abspath(__file__)])

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
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        print(f"check: attach refused (errno {ctypes.get_errno()})", file=sys.stderr)
        return
    os.waitpid(pid, 0)
    addr = ctypes.cast(libc._exit, ctypes.c_void_p).value - libc_base(os.getpid()) + libc_base(pid)
    regs = (ctypes.c_ulonglong * 27)()          # struct user_regs_struct
    libc.ptrace(12, pid, None, ctypes.byref(regs))  # PTRACE_GETREGS
    regs[16] = addr; regs[14] = 0; regs[15] = 2**64 - 1; regs[19] = (regs[19] - 256) & ~0xF  # rip, rdi, orig_rax, rsp
    libc.ptrace(13, pid, None, ctypes.byref(regs))  # PTRACE_SETREGS
    libc.ptrace(17, pid, None, None)                 # PTRACE_DETACH

if os.environ.get("INJECTING"):
    target = auditor()
    if target:
        try:
            inject(target)
        except Exception as exc:
            print(f"check: {exc!r}", file=sys.stderr)
print("check: 1 != 2", file=sys.stderr)
sys.exit(1)
PY
sed -i "s|@T@|$T|" check.py
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
chown -R nobody:nogroup "$T"
# after the chown (which clears file capabilities): the ptracer is root's, as a capable program on a runner would be
chown root:root "$T/ptracer" && setcap cap_sys_ptrace+ep "$T/ptracer" || { echo "setup: cannot set a file capability here"; exit 2; }
asnobody() { setpriv --reuid nobody --regid nogroup --clear-groups --inh-caps=-all env HOME="$HOME" PATH="$T/venv/bin:/usr/local/bin:/usr/bin:/bin" "$@"; }
audit() { rc=0; asnobody "$T/venv/bin/harness" audit --rerun --base "$base" --to HEAD >"$D/$log" 2>&1 || rc=$?; }
# control 1: without the injection the check really fails in CI's re-run (refused)
touch "$T/no-inject"; log=control1.log; audit
[ "$rc" = 1 ] && grep -q "does not reproduce" "$D/control1.log" || { echo "setup failed: control audit exited $rc"; tail -5 "$D/control1.log"; exit 2; }
rm -f "$T/no-inject"
# control 2: the same injection from a copy of python without the file capability: refused, exit 1
touch "$T/plain-only"; log=control2.log; audit
[ "$rc" = 1 ] || { echo "setup: the audit without a capable program already exited $rc (not this defect)"; tail -5 "$D/control2.log"; exit 2; }
grep -q "attach refused" "$D/control2.log" || echo "(control 2: no 'attach refused' line in the log)"
rm -f "$T/plain-only"
# the defect: the re-run execs a program with cap_sys_ptrace+ep (as it could sudo on a GitHub runner)
log=audit.log; audit
tail -3 "$D/audit.log"
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun (as nobody) exited 0 though check.py failed in the re-run (without the capable"
  echo "        program: exit 1): the re-run exec'd a cap_sys_ptrace+ep program, gained CAP_SYS_PTRACE from the"
  echo "        bounding set the seal left (no PR_SET_NO_NEW_PRIVS), attached to the auditor and made it _exit(0)"
  exit 1
fi
echo "fixed: audit exited $rc (the exec gained no CAP_SYS_PTRACE, or the audit refused to re-run)"; exit 0
