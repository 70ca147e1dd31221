"""`harness audit --rerun` loads no code a re-run could have written (read 164's F-0563).

Each command a re-run starts gets a bytecode cache folder of its own, but the audit's own interpreter read the
`__pycache__` folders beside its sources: a DONE's check.py, failing in CI's re-run, wrote a `.pyc` for
`harness.cli.hooks` (its header matching the source's size and time), which the text report imported after the
re-runs; the planted code exited 0 and CI passed over a result that did not reproduce. Now the audit imports what it
needs before the first re-run starts, and later imports compile into a private cache folder. Beside it, the honest
audits: text and --json, with evidence, findings' reproducers and regression tests re-run, import nothing after the
first re-run starts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.paths import ROOT
from support.records import PASS_CMD, configure
from support.rerun_range import done
from support.reviewed_done import done_with_findings

# Records, in the audit's own process, every module first imported after the seal is armed.
RECORDER = """\
import json, sys
from harness.history.rerun import sealed
late, armed = [], []
class Recorder:
    def find_spec(self, name, path=None, target=None):
        late.append(name)
        return None
arm = sealed.Sealed.arm
def arming(self):
    arm(self)
    armed.append(1)
    sys.meta_path.insert(0, Recorder())
sealed.Sealed.arm = arming
sys.argv = ["harness", *sys.argv[2:]]
out = sys.argv and __import__("os").environ["LATE_OUT"]
try:
    from harness.cli.launch import entry
    entry()
finally:
    with open(out, "w") as fh:
        json.dump({"late": late, "armed": len(armed)}, fh)
"""


def _recorded(repo: Path, tmp_path: Path, args: list[str]) -> tuple[subprocess.CompletedProcess, dict]:
    """`harness ARGS` run in its own process with :data:`RECORDER`: (the run, what it recorded)."""
    script, out = tmp_path / "recorder.py", tmp_path / "late.json"
    script.write_text(RECORDER)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    r = subprocess.run([sys.executable, str(script), "-", *args], cwd=repo, capture_output=True, text=True,
                       env={**env, "LATE_OUT": str(out)}, check=False)
    return r, json.loads(out.read_text())


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_an_honest_audit_imports_nothing_after_its_first_re_run(h, repo, tmp_path, monkeypatch, as_json):
    base, _, _ = done_with_findings(h, repo, tmp_path, monkeypatch)
    r, seen = _recorded(repo, tmp_path, ["audit", "--rerun", "--from", base, "--to", "HEAD",
                                         *(["--json"] if as_json else [])])
    assert r.returncode == 0, r.stdout + r.stderr
    assert seen == {"late": [], "armed": 1}  # sealed once, before its re-runs; nothing loaded after


def test_an_audit_that_re_runs_nothing_is_never_sealed(h, repo, tmp_path):
    # The preload costs over a second: a range without a DONE commit (most pushes) re-runs nothing and pays nothing.
    base = commit_all_ok(repo, "base")
    (repo / "app.py").write_text("def answer():\n    return 42  # code alone\n")
    commit_all_ok(repo, "code only")
    r, seen = _recorded(repo, tmp_path, ["audit", "--rerun", "--from", base, "--to", "HEAD"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert seen["armed"] == 0


def test_an_internal_error_inside_a_sealed_re_running_audit_could_not_run_with_its_crash_log(h, repo, tmp_path,
                                                                                             monkeypatch):
    # Answered inside the seal, from what was loaded before it: exit 2 (could not run), never a traceback's exit 1
    # read as "refused", nor a verdict.
    from harness.history.rerun import execute
    from harness.history.rerun.sealed import Sealed

    base, _, _ = done_with_findings(h, repo, tmp_path, monkeypatch)
    armed: list[bool] = []
    arm = Sealed.arm

    def arming(self: Sealed) -> None:
        arm(self)
        armed.append(True)

    def broken(*args: object, **kwargs: object) -> None:
        assert armed, "not sealed yet: the test tests nothing"
        raise RuntimeError("an internal error in the middle of a re-run")

    monkeypatch.setattr(Sealed, "arm", arming)
    monkeypatch.setattr(execute, "_run_planned", broken)
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 2, r.text
    assert "harness: audit: could not run: RuntimeError: an internal error in the middle of a re-run" in r.err
    log = r.err.split("crash log: ", 1)[1].split()[0]
    assert "RuntimeError" in Path(log).read_text()


def test_f0572_while_sealed_no_module_is_loaded_and_after_it_imports_work_again():
    from harness.history.rerun.sealed import Sealed

    name = "harness_never_loaded_module_xyz"
    with Sealed() as sealed:
        sealed.arm()
        assert "encodings.koi8_r" in sys.modules and "xml.etree.ElementTree" in sys.modules  # loaded before
        with pytest.raises(ImportError, match="not loaded before the re-runs started"):
            __import__(name)
        assert b"x".decode("koi8_r") == "x"  # a codec the text names: loaded before, found
    with pytest.raises(ModuleNotFoundError, match="No module named"):  # the ordinary answer again
        __import__(name)


def test_the_modules_named_include_a_function_s_own_imports_and_no_main():
    from harness.history.rerun.sealed import named_modules

    names = named_modules()
    assert "harness.cli.hooks" in names and "harness.cli.audit_report" in names
    assert "xml.etree.ElementTree" in names  # imported inside a function (junit reports)
    assert not any(n.endswith("__main__") for n in names)


CHECK = """\
# passes on the laptop; in CI's re-run (a worktree under harness-rerun-*) it fails, and plants bytecode for a module
# the auditor imports only after the re-runs
import importlib.util, marshal, os, sys
if "harness-rerun-" not in os.getcwd():
    sys.exit(0)
pkg = importlib.util.find_spec("harness").submodule_search_locations[0]
src = os.path.join(pkg, "cli", "hooks.py")
st = os.stat(src)
code = compile("import os\\nos._exit(0)\\n", src, "exec")
head = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
head += (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
cache = os.path.join(pkg, "cli", "__pycache__")
os.makedirs(cache, exist_ok=True)
with open(os.path.join(cache, "hooks.%s.pyc" % sys.implementation.cache_tag), "wb") as f:
    f.write(head + marshal.dumps(code))
sys.exit(1)
"""


def _ci_interpreter(where: Path) -> Path:
    """CI's interpreter: a virtual environment with a copy of the harness installed in it (the dependencies through a
    `.pth` naming this one's), so what a re-run plants in it never reaches the suite's own install."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    shutil.copytree(ROOT / "harness", site / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    # the folders this interpreter imports its packages from (a lent environment's site folder holds only .pth files)
    (site / "zz_deps.pth").write_text("".join(f"{p}\n" for p in sys.path if p.endswith("site-packages")))
    launcher = where / "bin" / "harness"
    launcher.write_text(f"#!{python}\nimport sys\nfrom harness.cli.launch import entry\nsys.exit(entry())\n")
    launcher.chmod(0o755)
    return where / "bin"


def test_f0563_bytecode_a_re_run_plants_in_the_harness_s_package_never_decides_the_audit(h, repo, tmp_path, monkeypatch):
    bin_dir = _ci_interpreter(tmp_path / "ci")
    # `python` is CI's interpreter, on the laptop and in the re-run alike (a fresh machine may have no `python` at all)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    (repo / "check.py").write_text(CHECK)
    (repo / ".gitignore").write_text("__pycache__/\n")
    configure(repo, ["python", "-c", "pass"], ["python", "check.py"])
    base = commit_all_ok(repo, "check")
    h.ok("task", "new", "Checked")
    h.ok("requirement", "add", "check.py passes", "--priority", "must")
    for state in ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING"):
        h.ok("transition", state)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    for state in ("REVIEWING", "GATING"):
        h.ok("transition", state)
    assert h("gate", "--advance").code == 0
    h.ok("transition", "DONE")
    commit_all_ok(repo, "done")
    # As CI starts it: no PYTHONPATH or bytecode cache folder of the caller's (a lent checkout's run has both) puts
    # another harness first or hides the planted cache
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    r = subprocess.run([str(bin_dir / "harness"), "audit", "--rerun", "--from", base, "--to", "HEAD"], cwd=repo,
                       capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "does not reproduce" in r.stderr
    assert list((tmp_path / "ci").rglob("hooks.*.pyc")), "the re-run planted nothing: the test tests nothing"


# A process reads another's memory as a debugger would (the pid given): the open ptrace's access rules decide.
READ_MEMORY_OF = """\
import sys
try:
    open(f"/proc/{sys.argv[1]}/mem", "rb").close()
    print("readable")
except OSError as exc:
    print(type(exc).__name__)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_DUMPABLE) and /proc are Linux's")
def test_f0574_no_re_run_can_attach_to_the_sealed_audit_as_a_debugger():
    # A re-run ptrace-attached the audit (same user, no Yama) and made it _exit(0) before its verdict (read 168's
    # F-0574): while sealed the audit is not dumpable, so no process of its user can attach to it or read its memory.
    from harness.history.rerun.sealed import Sealed

    def child_reads() -> str:
        return subprocess.run([sys.executable, "-c", READ_MEMORY_OF, str(os.getpid())], capture_output=True, text=True,
                              check=True).stdout.strip()

    with Sealed() as sealed:
        sealed.arm()
        assert child_reads() == "PermissionError"
    assert Path(f"/proc/{os.getpid()}/status").read_text().count("\n") > 0  # its own /proc still readable


# -- what the seal cannot cover: the processes that started the audit (read 169) ---------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Yama and /proc are Linux's")
def test_the_audit_says_a_re_run_can_reach_what_started_it_exactly_where_one_can():
    # The sealed audit's child tries what a re-run would: the memory of the audit's parent (here, the test process's
    # parent: a process of the same user that no seal covers). The audit's note says so exactly where it succeeds.
    from harness.history.rerun.sealed import Sealed, ancestors_exposed

    parent = os.getppid()
    if not os.access(f"/proc/{parent}/status", os.R_OK) or os.stat(f"/proc/{parent}").st_uid != os.getuid():
        pytest.skip("the test process's parent is not a process of its user it can see")
    with Sealed() as sealed:
        sealed.arm()
        reached = subprocess.run([sys.executable, "-c", READ_MEMORY_OF, str(parent)], capture_output=True, text=True,
                                 check=True).stdout.strip()
    assert (reached == "readable") == ancestors_exposed(), reached


ALL, NONE, PTRACE = (1 << 41) - 1, 0, 1 << 19


@pytest.mark.parametrize(("scope", "root", "caps", "exposed"), [
    ("0\n", False, {}, True), ("1\n", False, {}, False), ("2\n", False, {}, False), ("3\n", False, {}, False),
    (None, False, {}, True),
    # root: its ancestors hold CAP_SYS_PTRACE, dropped for every program it starts
    ("0\n", True, {"CapPrm": ALL, "CapBnd": ALL - PTRACE}, False),
    (None, True, {"CapPrm": ALL, "CapBnd": ALL - PTRACE}, False),
    # a program it starts would still hold it (read 170's F-0577): Yama's 1 and 2 do not stop a holder, 3 does
    (None, True, {"CapPrm": ALL, "CapBnd": ALL}, True), ("1\n", True, {"CapPrm": ALL, "CapInh": PTRACE}, True),
    ("2\n", False, {"CapAmb": PTRACE, "CapInh": PTRACE}, True), ("3\n", True, {"CapPrm": ALL, "CapInh": PTRACE}, False),
    # a user's bounding set reaches a program whose exec grants capabilities (setuid, file capabilities: read 171's
    # F-0579), unless no_new_privs forbids that
    ("1\n", False, {"CapBnd": ALL, "NoNewPrivs": 0}, True), ("1\n", False, {"CapBnd": ALL, "NoNewPrivs": 1}, False),
    (None, False, None, True),  # unreadable: said exposed, never claimed covered
], ids=["0", "1", "2", "3", "no-yama", "0-root", "no-yama-root", "root-bounding-kept", "1-inheritable",
        "2-ambient", "3-inheritable", "user-bounding-exec-gains", "user-bounding-no-new-privs", "caps-unknown"])
def test_which_settings_leave_what_started_the_audit_exposed(tmp_path, monkeypatch, scope, root, caps, exposed):
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", "linux")
    scope_file, status = tmp_path / "ptrace_scope", tmp_path / "status"
    if scope is not None:
        scope_file.write_text(scope)
    if caps is not None:
        sets = {"CapInh": NONE, "CapPrm": NONE, "CapEff": caps.get("CapPrm", NONE), "CapBnd": ALL, "CapAmb": NONE,
                "NoNewPrivs": 1}  # as the seal leaves it
        sets.update(caps)
        status.write_text("Name:\tpython3\n" + "".join(f"{k}:\t{v:016x}\n" for k, v in sets.items()))
    assert sealed.ancestors_exposed(str(scope_file), str(status), root=root) is exposed


@pytest.mark.parametrize(("scope", "root", "caps", "reachable"), [
    # read 172's F-0581: a user's audit cannot drop CAP_SYS_PTRACE from its bounding set; where a re-run may debug
    # another process of the user (no Yama, or 0), it has one without no_new_privs execute a program that gains it
    (None, False, {"CapBnd": ALL}, True), ("0\n", False, {"CapBnd": ALL}, True),
    ("1\n", False, {"CapBnd": ALL}, False), ("3\n", False, {"CapBnd": ALL}, False),
    (None, False, {"CapBnd": ALL - PTRACE}, False),  # nothing of the user can gain it
    (None, True, {"CapPrm": ALL, "CapBnd": ALL - PTRACE}, False),  # root dropped it
    (None, True, {"CapPrm": ALL, "CapBnd": ALL}, True),  # root could not drop it: its programs hold it
    ("1\n", False, {"CapBnd": ALL - PTRACE, "CapAmb": PTRACE, "CapInh": PTRACE}, True),
    (None, False, None, True),  # unreadable: reachable, never claimed sealed
], ids=["user-no-yama", "user-0", "user-1", "user-3", "user-bounding-without", "root", "root-bounding-kept",
        "ambient", "caps-unknown"])
def test_f0581_when_a_re_run_could_still_reach_the_sealed_audit(tmp_path, monkeypatch, scope, root, caps, reachable):
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", "linux")
    scope_file, status = tmp_path / "ptrace_scope", tmp_path / "status"
    if scope is not None:
        scope_file.write_text(scope)
    if caps is not None:
        sets = {"CapInh": NONE, "CapPrm": NONE, "CapEff": caps.get("CapPrm", NONE), "CapBnd": ALL, "CapAmb": NONE,
                "NoNewPrivs": 1}  # as the seal leaves it
        sets.update(caps)
        status.write_text("Name:\tpython3\n" + "".join(f"{k}:\t{v:016x}\n" for k, v in sets.items()))
    # the kernel settings a root re-run could write are another test's (F-0584): none here
    assert sealed.reachable_after_the_drop(str(scope_file), str(status), root=root,
                                           kernel_file=str(tmp_path / "no-core-pattern"),
                                           mountinfo=str(tmp_path / "no-mountinfo")) is reachable

# A sealed audit's stand-in: what a program it starts holds, and whether that program can open the audit's memory.
SEALED_PARENT = '''\
import subprocess, sys
from harness.history.rerun.sealed import Sealed
CHILD = """import os
held = 0
for line in open("/proc/self/status"):
    if line.startswith(("CapPrm:", "CapEff:")):
        held |= int(line.split()[1], 16)
print("ptrace:" + ("yes" if held >> 19 & 1 else "no"))
try:
    open(f"/proc/{os.getppid()}/mem", "rb").close()
    print("mem:readable")
except OSError as exc:
    print("mem:" + type(exc).__name__)
"""
with Sealed() as sealed:
    sealed.arm()
    print(subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True).stdout, end="")
    print("reachable:" + ("yes" if sealed.reachable else "no"))
'''


def _bounding_holds_ptrace() -> bool:
    status = Path("/proc/self/status").read_text()
    return bool(int(status.split("CapBnd:")[1].split()[0], 16) >> 19 & 1)


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="gives the audit an inheritable CAP_SYS_PTRACE with setpriv: Linux, as root")
@pytest.mark.parametrize("given", [["--inh-caps", "+sys_ptrace"],
                                   ["--inh-caps", "+sys_ptrace", "--ambient-caps", "+sys_ptrace"]],
                         ids=["inheritable", "ambient"])
def test_f0577_no_program_the_sealed_audit_starts_keeps_a_ptrace_capability_handed_to_it(tmp_path, given):
    # Read 170: the seal dropped CAP_SYS_PTRACE from the bounding set alone; root execs with its inheritable set too
    # (an older container runtime's --cap-add SYS_PTRACE fills it), so a re-run attached to the audit and made it
    # exit 0. Now no set a program inherits from keeps it.
    if not _bounding_holds_ptrace():
        pytest.skip("this process can hand down no CAP_SYS_PTRACE: an audit run in-process earlier in this worker "
                    "sealed it (the bounding set only shrinks); the test runs where none did")
    script = tmp_path / "sealed.py"
    script.write_text(SEALED_PARENT)
    r = subprocess.run(["setpriv", *given, sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["ptrace:no", "mem:PermissionError", "reachable:no"], r.stdout + r.stderr


def test_f0577_an_audit_whose_re_runs_would_still_hold_ptrace_runs_none_of_them(h, repo, monkeypatch):
    # Where the seal cannot take the capability away (a root audit in a container without CAP_SETPCAP, whose bounding
    # set keeps it), a re-run could attach to the audit: nothing is re-run, and the audit says why (could not run).
    from harness.history.rerun import sealed

    monkeypatch.setattr(sealed, "children_hold_ptrace", lambda *a, **k: True)
    configure(repo, PASS_CMD, PASS_CMD)
    base = commit_all_ok(repo, "config")
    done(h, repo, "First")
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 2, r.text
    assert "a re-run could still reach this audit" in r.err and "reproduces" not in r.err, r.err


@pytest.mark.parametrize(("platform", "exposed"), [("darwin", False), ("freebsd14", True), ("win32", True)])
def test_elsewhere_only_macos_asks_more_of_a_debugger_than_the_same_user(monkeypatch, tmp_path, platform, exposed):
    from harness.history.rerun import sealed

    monkeypatch.setattr(sys, "platform", platform)
    assert sealed.ancestors_exposed(str(tmp_path / "none"), str(tmp_path / "none")) is exposed


@pytest.mark.parametrize("exposed", [True, False], ids=["exposed", "yama"])
def test_the_audit_notes_once_what_its_seal_does_not_cover(h, repo, monkeypatch, exposed):
    from harness.history.rerun import sealed

    monkeypatch.setattr(sealed, "ancestors_exposed", lambda: exposed)
    configure(repo, PASS_CMD, PASS_CMD)
    base = commit_all_ok(repo, "config")
    done(h, repo, "First")
    done(h, repo, "Second")
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 0, r.text
    assert r.err.count("a re-run could attach to it") == (1 if exposed else 0), r.err
    doc = json.loads(h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD").out)  # a fan-out job's reader
    assert sum("a re-run could attach to it" in note for note in doc.get("notes", [])) == (1 if exposed else 0), doc


# -- what a program the sealed audit starts can gain, and what runs when the seal cannot hold (read 171) --------------

# The sealed audit's stand-in again: whether a program it starts may gain privileges when it is executed.
SEALED_NO_NEW_PRIVS = '''\
import subprocess, sys
from harness.history.rerun.sealed import Sealed
with Sealed() as sealed:
    sealed.arm()
    status = subprocess.run(["cat", "/proc/self/status"], capture_output=True, text=True, check=True).stdout
    print(next(line for line in status.splitlines() if line.startswith("NoNewPrivs:")).split()[1])
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_NO_NEW_PRIVS is Linux's")
def test_f0579_no_program_a_sealed_audit_starts_gains_privileges_when_executed(tmp_path):
    # Read 171: an audit run as an ordinary user cannot drop CAP_SYS_PTRACE from its bounding set, and a re-run
    # executed a program with file capabilities (or a setuid one: sudo) that gained it and attached to the audit.
    # Sealed, every program it starts runs with no_new_privs: an exec grants nothing.
    script = tmp_path / "sealed.py"
    script.write_text(SEALED_NO_NEW_PRIVS)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "1", r.stdout + r.stderr


# Drops to `nobody` and, from a shell that holds nothing (setpriv itself may keep what root held), runs a copy of `cat`
# that carries a file capability: what it holds once executed.
GAINS = '''\
import subprocess, sys
from harness.history.rerun.sealed import Sealed
cat, armed = sys.argv[1], sys.argv[2] == "sealed"
with Sealed() as sealed:
    if armed:
        sealed.arm()
    out = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                          'exec "$0" /proc/self/status', cat], capture_output=True, text=True, check=True).stdout
    print(next(line for line in out.splitlines() if line.startswith("CapEff:")).split()[1])
'''


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0
                    or not (shutil.which("setpriv") and shutil.which("setcap")),
                    reason="gives a program a file capability (setcap) and runs it as nobody (setpriv): Linux, as root")
def test_f0579_a_file_capability_grants_nothing_below_a_sealed_audit(tmp_path):
    # CAP_NET_RAW stands for any capability the bounding set keeps (a user's audit cannot drop CAP_SYS_PTRACE from it).
    import tempfile

    reachable = Path(tempfile.mkdtemp(prefix="harness-test-caps-", dir="/tmp"))  # nobody can reach it (not tmp_path)
    reachable.chmod(0o755)
    cat = reachable / "cat"
    shutil.copy(shutil.which("cat"), cat)
    cat.chmod(0o755)
    subprocess.run(["setcap", "cap_net_raw+ep", str(cat)], check=True)
    script = tmp_path / "gains.py"
    script.write_text(GAINS)

    def held(mode: str) -> int:
        r = subprocess.run([sys.executable, str(script), str(cat), mode], capture_output=True, text=True, check=True)
        return int(r.stdout.strip(), 16)

    net_raw = 1 << 13
    try:
        if not held("plain") & net_raw:
            pytest.skip("no file capability is granted below this process: an audit run in-process earlier in this "
                        "worker set no_new_privs (it is never unset), or the folder is on a nosuid mount")
        assert not held("sealed") & net_raw
    finally:
        shutil.rmtree(reachable)


def test_f0580_a_job_whose_seal_cannot_hold_runs_nothing_of_the_checkout_not_even_a_probe(h, repo, monkeypatch,
                                                                                            tmp_path):
    # Read 171: with the seal reachable, the guard still probed the interpreter the configured command names; a
    # relative one is the checkout's own file, which ran holding CAP_SYS_PTRACE and could attach to the audit.
    from harness.history.rerun import sealed

    marker = tmp_path / "the-checkout-ran"
    wrapper = repo / "tools" / "python3"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\ncase "$PWD" in *harness-probe-*|*harness-rerun-*) echo ran >> {marker} ;; esac\n'
                       f'exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    configure(repo, ["tools/python3", "-c", "pass"], ["tools/python3", "-c", "pass"])
    base = commit_all_ok(repo, "config; the project's python wrapper")
    done(h, repo, "First")
    monkeypatch.setattr(sealed, "children_hold_ptrace", lambda *a, **k: True)
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 2, r.text
    assert not marker.exists(), marker.read_text()


def test_f0580_a_poisoned_job_probes_no_interpreter_it_learns(repo, tmp_path, monkeypatch):
    from harness.gitio.git import Git
    from harness.history.rerun.isolation import RerunGuard

    guard = RerunGuard(Git(repo), environ={"PATH": "/usr/bin", "HOME": str(tmp_path / "home")},
                       poisoned="a reason nothing runs")
    probed: list[str] = []
    monkeypatch.setattr(RerunGuard, "_probe", lambda self, program: probed.append(program))
    guard.learn([sys.executable])
    assert probed == [] and guard.baseline is None
