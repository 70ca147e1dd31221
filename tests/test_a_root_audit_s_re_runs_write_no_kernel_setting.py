"""A root audit's re-runs cannot hand a program of theirs to the kernel to start (F-0584).

Root needs no capability to write /proc/sys/kernel/core_pattern; with `|/path/prog` there, the next crash of any process
has the kernel start prog as root with every capability, outside the audit's seal, free to attach to the audit and
decide its verdict. The audit's re-runs now see /proc/sys and /sys read-only, in a mount namespace of the audit's own
that it leaves when it ends, and hold no capability that could undo that or reach the kernel another way; where that
cannot be done the audit re-runs nothing and says why. The machine's own /proc/sys is left as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import ROOT

CORE = "/proc/sys/kernel/core_pattern"
AS_ROOT_WITH_A_WRITABLE_PROC_SYS = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0 or not os.access(CORE, os.W_OK),
    reason="a root audit's case, where /proc/sys is writable (not a container's read-only one)")

# A sealed audit's stand-in: a program it starts writes core_pattern back as it found it (nothing changes on the
# machine), and says which of the capabilities reaching the kernel its bounding set still holds.
SEALED_PARENT = '''\
import os, subprocess, sys
from harness.history.rerun.sealed import Sealed
CHILD = """import errno
p = "/proc/sys/kernel/core_pattern"
value = open(p).read()
try:
    with open(p, "w") as f:
        f.write(value)
    print("write:done")
except OSError as exc:
    print("write:" + errno.errorcode.get(exc.errno, "?"))
bounding = int(open("/proc/self/status").read().split("CapBnd:")[1].split()[0], 16)
print("kernel-caps:" + ",".join(str(c) for c in (16, 17, 21, 22, 38, 39) if bounding >> c & 1))
"""
with Sealed() as sealed:
    sealed.arm()
    print(subprocess.run([sys.executable, "-S", "-c", CHILD], capture_output=True, text=True, check=True).stdout, end="")
    print("reachable:" + ("yes" if sealed.reachable else "no"))
print("after:" + ("writable" if os.access("/proc/sys/kernel/core_pattern", os.W_OK) else "read-only"))
'''


def _sealed_child(tmp_path: Path) -> list[str]:
    script = tmp_path / "sealed.py"
    script.write_text(SEALED_PARENT)
    # this checkout's harness, wherever the interpreter's own install points
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, env=env)
    return r.stdout.split()


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0584_a_root_re_run_cannot_write_the_kernel_s_core_dump_helper(tmp_path):
    said = _sealed_child(tmp_path)
    assert said[0] == "write:EROFS" and "reachable:no" in said, said


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0584_a_root_re_run_holds_no_capability_that_reaches_the_kernel(tmp_path):
    said = _sealed_child(tmp_path)
    assert "kernel-caps:" in said, said


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_the_machine_s_proc_sys_stays_as_it_was_for_everyone_else(tmp_path):
    # The read-only view is the sealed process's alone, and it leaves it when the audit ends (the in-process test
    # runner runs many commands per process): neither the machine nor the process after the audit loses the write.
    said = _sealed_child(tmp_path)
    assert said[-1] == "after:writable", said
    assert os.access(CORE, os.W_OK)


@pytest.mark.parametrize(("root", "writable", "reachable"), [(True, True, True), (True, False, False),
                                                              (False, True, False)],
                         ids=["root-writable", "root-read-only", "user"])
def test_f0584_a_root_audit_whose_re_runs_could_still_write_it_runs_none(tmp_path, monkeypatch, root, writable,
                                                                        reachable):
    # Where the namespace or the remount failed (no CAP_SYS_ADMIN, a kernel without mount namespaces), the write stays:
    # then the audit re-runs nothing, as for any other way a re-run could still reach it. An ordinary user cannot
    # write the file whatever its mode says to root.
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", "linux")
    core = tmp_path / "core_pattern"
    if writable:
        core.write_text("core\n")
    status = tmp_path / "status"
    status.write_text("CapInh:\t0\nCapPrm:\t1ffffffffff\nCapBnd:\t1fffff7ffff\nCapAmb:\t0\nNoNewPrivs:\t1\n")
    assert sealed.reachable_after_the_drop(str(tmp_path / "no-yama"), str(status), root=root, kernel_file=str(core),
                                           mountinfo=str(tmp_path / "no-mountinfo")) is reachable


# A mountinfo of this machine's shape, and what a re-run's view must keep read-only in it: every mount at or below
# /proc/sys and /sys, every procfs but /proc itself (whose sys/ the view binds), every kernel filesystem wherever it is.
MOUNTINFO = [("/", "ext4"), ("/proc", "proc"), ("/proc/sys", "proc"), ("/proc/sys/fs/binfmt_misc", "binfmt_misc"),
             ("/sys", "sysfs"), ("/sys/fs/cgroup", "tmpfs"), ("/sys/fs/cgroup/a\\040b", "proc"),
             ("/system", "ext4"), ("/proc/sysrq", "tmpfs"), ("/srv/chroot/proc", "proc"), ("/srv/chroot/sys", "sysfs"),
             ("/mnt/debug", "debugfs"), ("/dev/shm", "tmpfs"), ("/home", "ext4")]


def _mountinfo(tmp_path: Path, read_only: tuple[str, ...] = ()) -> Path:
    info = tmp_path / "mountinfo"
    info.write_text("".join(f"{100 + i} 1 0:{i} / {point} {'ro' if point.replace(chr(92) + '040', ' ') in read_only else 'rw'},relatime - {fs} {fs} rw\n"
                            for i, (point, fs) in enumerate(MOUNTINFO)))
    return info


TARGETS = ["/proc/sys", "/proc/sys/fs/binfmt_misc", "/sys", "/sys/fs/cgroup", "/sys/fs/cgroup/a b",
           "/srv/chroot/proc", "/srv/chroot/sys", "/mnt/debug"]


def test_f0585_every_procfs_sysfs_and_kernel_filesystem_is_made_read_only_wherever_it_is_mounted(tmp_path):
    # Read 174: a build chroot's procfs (/srv/chroot/proc) reached the same core_pattern, and stayed writable.
    from harness.history.rerun import kernel_reach

    assert kernel_reach.read_only_targets(str(_mountinfo(tmp_path))) == TARGETS


def test_f0586_a_mount_point_is_read_with_mountinfo_s_escapes_undone(tmp_path):
    # Read 174: `/sys/fs/cgroup/a\040b` was remounted by that name, which no path has: the remount failed unseen.
    from harness.history.rerun import kernel_reach

    assert "/sys/fs/cgroup/a b" in kernel_reach.read_only_targets(str(_mountinfo(tmp_path)))


@pytest.mark.parametrize("left", ["/srv/chroot/proc", "/sys/fs/cgroup/a b", "/mnt/debug"])
def test_f0585_a_root_audit_whose_view_left_a_kernel_mount_writable_runs_nothing(tmp_path, monkeypatch, left):
    # A remount that failed (for whatever reason) is found after, by the view's own mountinfo: nothing re-runs.
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", "linux")
    status = tmp_path / "status"
    status.write_text("CapInh:\t0\nCapPrm:\t1ffffffffff\nCapBnd:\t1fffff7ffff\nCapAmb:\t0\nNoNewPrivs:\t1\n")
    every = _mountinfo(tmp_path, read_only=tuple(TARGETS))
    assert sealed.reachable_after_the_drop(str(tmp_path / "no-yama"), str(status), root=True,
                                           kernel_file=str(tmp_path / "none"), mountinfo=str(every)) is False
    (tmp_path / "one-left").mkdir()
    one_left = _mountinfo(tmp_path / "one-left", read_only=tuple(t for t in TARGETS if t != left))
    assert sealed.reachable_after_the_drop(str(tmp_path / "no-yama"), str(status), root=True,
                                           kernel_file=str(tmp_path / "none"), mountinfo=str(one_left)) is True


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0585_a_root_re_run_writes_no_kernel_setting_through_a_procfs_mounted_elsewhere(tmp_path):
    chroot_proc = tmp_path / "chroot" / "proc"
    chroot_proc.mkdir(parents=True)
    if subprocess.run(["mount", "-t", "proc", "proc", str(chroot_proc)], capture_output=True).returncode != 0:
        pytest.skip("no procfs can be mounted here")
    try:
        script = tmp_path / "sealed.py"
        script.write_text(SEALED_PARENT.replace('"/proc/sys/kernel/core_pattern"', repr(f"{chroot_proc}/sys/kernel/core_pattern")))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        said = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, env=env).stdout
    finally:
        subprocess.run(["umount", str(chroot_proc)], check=True)
    assert said.split()[0] == "write:EROFS" and "reachable:no" in said.split(), said


def _run(tmp_path: Path, code: str, *prefix: str, cwd: Path | None = None) -> str:
    """``code`` run as a program of its own with this checkout's harness: what it printed."""
    script = tmp_path / "program.py"
    script.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([*prefix, sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=cwd)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


# A re-run's capabilities: whichever of the kernel-reaching ones it holds (effective), handed down from any set.
HELD = '''\
import subprocess, sys
from harness.history.rerun.sealed import Sealed
CHILD = ("e = int(open('/proc/self/status').read().split('CapEff:')[1].split()[0], 16); "
         "print('held:' + ','.join(str(c) for c in (16, 17, 21, 22, 38, 39) if e >> c & 1))")
with Sealed() as sealed:
    sealed.arm()
    print(subprocess.run([sys.executable, "-S", "-c", CHILD], capture_output=True, text=True, check=True).stdout, end="")
    print("reachable:" + ("yes" if sealed.reachable else "no"))
'''


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
@pytest.mark.skipif(not shutil.which("setpriv"), reason="hands the audit inheritable capabilities with setpriv")
@pytest.mark.parametrize("given", [["--inh-caps", "+sys_admin"],
                                   ["--inh-caps", "+sys_admin,+sys_module", "--ambient-caps", "+sys_admin,+sys_module"]],
                         ids=["inheritable", "ambient"])
def test_f0588_no_re_run_holds_a_kernel_reaching_capability_handed_to_the_audit(tmp_path, given):
    # Read 175: only the bounding set lost them; root execs with its inheritable set too (an older Docker's
    # --cap-add SYS_ADMIN or --privileged filled it), so a re-run held CAP_SYS_ADMIN and remounted /proc/sys writable.
    said = _run(tmp_path, HELD, "setpriv", *given).split()
    assert said == ["held:", "reachable:no"], said


@pytest.mark.parametrize(("root", "sets", "reachable"), [
    (True, {"CapInh": 1 << 21}, True), (True, {"CapAmb": 1 << 16}, True), (False, {"CapAmb": 1 << 39}, True),
    (False, {"CapInh": 1 << 21}, False),  # an ordinary user's program gains nothing inheritable under no_new_privs
    (True, {}, False)], ids=["root-inheritable", "root-ambient", "user-ambient", "user-inheritable", "none"])
def test_f0588_an_audit_whose_re_runs_would_still_hold_one_runs_none(tmp_path, monkeypatch, root, sets, reachable):
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", "linux")
    held = {"CapInh": 0, "CapPrm": (1 << 41) - 1, "CapBnd": ((1 << 41) - 1) & ~(1 << 19 | 1 << 16 | 1 << 17 | 1 << 21
                                                                             | 1 << 22 | 1 << 38 | 1 << 39),
            "CapAmb": 0, **sets}
    status = tmp_path / "status"
    status.write_text("".join(f"{k}:\t{v:016x}\n" for k, v in held.items()) + "NoNewPrivs:\t1\n")
    assert sealed.reachable_after_the_drop(str(tmp_path / "no-yama"), str(status), root=root,
                                           kernel_file=str(tmp_path / "none"),
                                           mountinfo=str(tmp_path / "none")) is reachable


AFTER = '''\
import os, threading
from harness.history.rerun.sealed import Sealed
before = os.readlink("/proc/self/ns/mnt")
done = threading.Event()
with Sealed() as sealed:
    sealed.arm()
    threading.Thread(target=done.wait, daemon=True).start()  # a reader thread of the runner's, still alive
done.set()
print("cwd:" + os.getcwd())
print("namespace:" + ("same" if os.readlink("/proc/self/ns/mnt") == before else "other"))
print("proc-sys:" + ("writable" if os.access("/proc/sys/kernel/core_pattern", os.W_OK) else "read-only"))
'''


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0589_the_seal_s_end_keeps_the_working_folder(tmp_path):
    # Read 175: setns put the process at the namespace's root: every later relative path of the in-process runner
    # (and a chroot's root) moved.
    work = tmp_path / "work"
    work.mkdir()
    without_a_thread = AFTER.replace("    threading.Thread(", "    0 and threading.Thread(")
    assert f"cwd:{work}" in _run(tmp_path, without_a_thread, cwd=work).split()


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0590_a_thread_alive_at_the_seal_s_end_keeps_nothing_of_the_view(tmp_path):
    # Read 175: setns refuses a thread whose filesystem state another thread shares (EINVAL), and that went unseen:
    # the process stayed in the read-only view.
    said = _run(tmp_path, AFTER).split()
    assert "namespace:same" in said and "proc-sys:writable" in said, said


@pytest.mark.parametrize(("root", "bounding", "holds"), [(True, 1 << 21, True), (True, 0, False), (False, 1 << 21, False)],
                         ids=["root-kept-it", "root-dropped-it", "user"])
def test_a_root_audit_that_could_not_drop_one_from_its_bounding_set_counts_it_held(tmp_path, root, bounding, holds):
    # Root without CAP_SETPCAP keeps its bounding set: its programs hold what it holds. An ordinary user's program
    # gains nothing from it under no_new_privs.
    from harness.history.rerun import kernel_caps

    status = tmp_path / "status"
    status.write_text(f"CapInh:\t0\nCapPrm:\t1ffffffffff\nCapBnd:\t{bounding:016x}\nCapAmb:\t0\nNoNewPrivs:\t1\n")
    assert kernel_caps.children_hold(str(status), root=root) is holds


# A re-run that borrows an ordinary user's identity for the check /proc/PID/root makes, then writes the machine's
# core_pattern below that process's root (its mount namespace is the machine's): back the value it read.
THROUGH_ANOTHER = '''\
import subprocess, sys
from harness.history.rerun.sealed import Sealed
CHILD = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = sys.argv[1]
st = os.stat(f"/proc/{pid}")
libc.setfsgid(st.st_gid); libc.setfsuid(st.st_uid)
try:
    machine = os.open(f"/proc/{pid}/root", os.O_PATH | os.O_DIRECTORY)
except OSError:
    machine = None
finally:
    libc.setfsuid(0); libc.setfsgid(0)
try:
    if machine is None:
        raise OSError("not followed")
    fd = os.open("proc/sys/kernel/core_pattern", os.O_RDWR, dir_fd=machine)
    os.write(fd, os.read(fd, 4096))
    print("write:done")
except OSError:
    print("write:refused")
"""
with Sealed() as sealed:
    sealed.arm()
    r = subprocess.run([sys.executable, "-S", "-c", CHILD, sys.argv[1]], capture_output=True, text=True, check=True)
    print(r.stdout, end="")
    print("reachable:" + ("yes" if sealed.reachable else "no"))
'''


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0591_a_root_re_run_reaches_no_kernel_setting_through_another_user_s_process(tmp_path):
    # Read 176: the read-only view is the audit's mount namespace alone; /proc/PID/root of an ordinary user's process
    # (the CI user's shell that ran sudo) leads to the machine's, and a re-run holding CAP_SETUID passed the check for
    # following it by taking that user's filesystem identity.
    other = subprocess.Popen(["sleep", "60"], user=65534, group=65534, extra_groups=[])
    try:
        script = tmp_path / "sealed.py"
        script.write_text(THROUGH_ANOTHER)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        said = subprocess.run([sys.executable, str(script), str(other.pid)], capture_output=True, text=True,
                              check=True, env=env).stdout.split()
    finally:
        other.kill()
        other.wait()
    assert said == ["write:refused", "reachable:no"], said


def test_f0592_a_kernel_filesystem_no_path_reaches_counts_while_read_write(tmp_path):
    # Read 177: a procfs hidden under a later mount was left read-write and unseen; the kernel lets a user namespace
    # mount a fresh procfs when any procfs of the mount namespace is wholly visible to it, a hidden one included.
    from harness.history.rerun import kernel_reach

    info = tmp_path / "mountinfo"
    info.write_text("100 1 8:1 / / rw - ext4 /dev/vda rw\n"
                    "101 100 0:40 / /proc rw - proc proc rw\n"
                    "102 100 0:41 / /tmp/x rw - tmpfs tmpfs rw\n"
                    "103 102 0:42 / /tmp/x/proc rw - proc proc rw\n"
                    "104 102 0:43 / /tmp/x rw - tmpfs tmpfs rw\n")  # covers 102, hiding the procfs below it
    assert kernel_reach.still_writable(str(info)) == ["/tmp/x/proc"]


LEFT_BEHIND = '''\
from harness.history.rerun.sealed import Sealed
KERNEL = {"proc", "sysfs", "binfmt_misc", "debugfs", "tracefs", "securityfs", "configfs", "bpf", "cgroup", "cgroup2"}
with Sealed() as sealed:
    sealed.arm()
    for line in open("/proc/self/mountinfo"):
        head, _, tail = line.partition(" - ")
        fields = head.split()
        if tail.split()[0] in KERNEL and fields[4] != "/proc" and fields[5].split(",")[0] == "rw":
            print("read-write:" + fields[4])
    print("reachable:" + ("yes" if sealed.reachable else "no"))
'''


@AS_ROOT_WITH_A_WRITABLE_PROC_SYS
def test_f0592_the_view_leaves_no_kernel_filesystem_read_write_even_where_no_path_reaches_it(tmp_path):
    # The view's own binds must not hide a read-write original (the /sys it bound over, the binfmt_misc below
    # /proc/sys): every one is read-only before anything covers it.
    assert _run(tmp_path, LEFT_BEHIND).split() == ["reachable:no"]


@pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("unshare")
                    or subprocess.run(["unshare", "--user", "--map-root-user", "true"]).returncode != 0,
                    reason="needs a user namespace (unshare --user --map-root-user)")
def test_f0593_an_audit_as_root_of_a_user_namespace_ends_its_seal_without_an_error(tmp_path):
    # Read 177: uid 0 in a user namespace makes its view (the new mount namespace is its own) but cannot go back to
    # the one its parent namespace owns: setns refused, and the audit failed after its verdict. The process ends with
    # the audit; it stays in its view, and says so to whoever asks.
    code = ("from harness.history.rerun.sealed import Sealed\nwith Sealed() as s:\n    s.arm()\n"
            "print('ended', 'in-view' if s.left_in_view else 'back')\n")
    said = _run(tmp_path, code, "unshare", "--user", "--map-root-user").split()
    assert said[0] == "ended", said
