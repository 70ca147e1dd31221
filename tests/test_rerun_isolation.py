"""CI's re-run measures exactly the commit, and no re-run influences another (issue #24, items 1 and 2).

The re-runs of one `harness audit --rerun` share the CI job's interpreter, user, PATH and HOME. A
command that writes into the interpreter (a `sitecustomize.py`, a `.pth`) decides every later run:
that is reported as poisoning (could not run, exit 2, naming the commit and the command) and nothing
later runs. An interpreter pointed at the repository's checkout (an editable install of a `src/`
layout) would test the checkout's code instead of the commit's: the re-run imports from its own tree,
or refuses (exit 2) with the remedy. Submodules are checked out at the commits the commit records.

Interpreters here are bare virtualenvs (`venv --without-pip`, ~0.1 s) the test may write into; the
detection itself is tested on fabricated site-packages folders.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.history.rerun import fingerprint, python_site
from harness.history.rerun.execute import UNRUNNABLE
from harness.history.rerun.isolation import REMEDY_COPY, REMEDY_LEAK
from harness.runner import clean_env

# The helpers live in support.rerun_range (shared with the other re-run tests); reproducers/review-rerun/
# import them from here.
from support.gitrepo import commit_all_ok, git
from support.records import PASS_CMD, configure
from support.rerun_range import (
    CHECK,
    EVERY_EXIT_PASSES,
    FAILS,
    PASSES_EVERY_FAILURE,
    PKG,
    PY,
    answer,
    done,
    editable,
    needs_a_site_sitecustomize,
    rerun,
    reruns,
    venv,
    writes,
)

# -- poisoning: across commits, across types -------------------------------------------------------------

@needs_a_site_sitecustomize  # the interpreter the poisoner writes into runs it
def test_a_check_of_an_earlier_commit_that_writes_a_sitecustomize_poisons_no_later_verdict(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    poison = site / "sitecustomize.py"
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(writes(poison, EVERY_EXIT_PASSES))
    base = commit_all_ok(repo, "a check that passes, and writes into the interpreter that runs it")
    first = done(h, repo, "First", after_unit_test=poison.unlink)  # the laptop is clean again
    (repo / "check.py").write_text(FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    assert code == 2 and doc["failed"] == 0, err
    poisoner = reruns(doc, first)["unit_test"]
    assert poisoner["result"] == UNRUNNABLE and f"added {poison}" in poisoner["poisoned"]
    assert first[:12] in poisoner["error"] and "check.py" in poisoner["error"]  # the commit and the command
    assert reruns(doc, first)["build"]["result"] == "reproduces"  # what ran before it stands
    later = reruns(doc, second)
    assert set(later) == {"build", "unit_test"}
    assert all(r["result"] == UNRUNNABLE and "outcome" not in r and first[:12] in r["error"] for r in later.values())
    assert "poisoning" in err and "nothing more runs in this job" in err
    # The forged DONE would have reproduced: the interpreter now passes a failing check.
    assert subprocess.run([str(python), "check.py"], cwd=repo).returncode == 0


def test_a_build_rerun_writing_a_pth_into_the_interpreter_poisons_the_unit_test_rerun_of_its_commit(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    poison = site / "zz_build.pth"
    configure(repo, [str(python), "setup.py"], [str(python), "-c", FAILS])
    (repo / "setup.py").write_text(writes(poison, EVERY_EXIT_PASSES.replace("\n", "; ", 1)))
    base = commit_all_ok(repo, "a build that runs repository code")
    sha = done(h, repo, "Built", forge=True, after_build=poison.unlink)

    code, doc, err = rerun(h, base)
    assert code == 2 and doc["could_not_run"] == 2, err
    runs = reruns(doc, sha)
    assert runs["build"]["result"] == UNRUNNABLE and f"added {poison}" in runs["build"]["poisoned"]
    assert "setup.py" in runs["build"]["error"] and "pip wheel" in runs["build"]["error"]  # the remedy
    assert runs["unit_test"]["result"] == UNRUNNABLE and "outcome" not in runs["unit_test"]
    assert sha[:12] in runs["unit_test"]["error"] and "build" in runs["unit_test"]["error"]
    assert subprocess.run([str(python), "-c", FAILS]).returncode == 0  # it would have "reproduced"


def test_an_honest_range_is_not_poisoning(h, repo, tmp_path):
    """Running a Python writes bytecode caches; nothing an honest run leaves is poisoning."""
    python, site = venv(tmp_path / "ci-venv")
    (site / "helper_mod.py").write_text("VALUE = 1\n")  # no cache yet: the re-run's import writes one
    configure(repo, PASS_CMD, [str(python), "-c", "import helper_mod, sys; sys.exit(helper_mod.VALUE != 1)"])
    base = commit_all_ok(repo, "config")
    first = done(h, repo, "First")
    (repo / "app.py").write_text("def answer():\n    return 42  # again\n")
    second = done(h, repo, "Second")
    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert all(r["result"] == "reproduces" and "poisoned" not in r
               for c in (first, second) for r in reruns(doc, c).values())


# -- what a re-run leaves running (read 68's F-0230) ------------------------------------------------------

STRAGGLER = """import os, subprocess, sys
if "harness-rerun-" in os.getcwd():  # only in CI's re-run: the laptop's run leaves nothing
    subprocess.Popen([sys.executable, "-c", "import pathlib, time; time.sleep(0.5); pathlib.Path(%r).write_text('x')"],
                     start_new_session=%s)
"""


def test_a_process_a_re_run_leaves_in_its_group_is_ended_with_it(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    poison = site / "sitecustomize.py"
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(STRAGGLER % (str(poison), False))
    base = commit_all_ok(repo, "a check that leaves a process behind, which writes into the interpreter later")
    done(h, repo, "First")
    code, doc, err = rerun(h, base)
    assert code == 0, err
    import time

    time.sleep(1.0)  # twice what the process waits: it would have written by now
    assert not poison.exists()


def test_a_change_no_run_was_going_to_make_is_poisoning_found_before_the_next_step(repo):
    # A process that left the run's group (setsid) outlives the reaping: the audit compares again before each
    # commit's checks and its report, and what changed in between makes the job's verdict could-not-run.
    from harness.gitio.process_git import ProcessGit
    from harness.history.audit import AuditResult, _left_running
    from harness.history.rerun.isolation import Job, RerunGuard

    job = Job(lambda: RerunGuard(ProcessGit(repo)))
    job.get()
    result = AuditResult("audit", ["c1"], rows=[{"commit": "c1", "ok": True}])
    said: list[str] = []
    _left_running(job, result, "checking c2", said.append)
    assert result.unrunnable == 0 and said == []  # nothing changed: nothing said
    git(repo, "config", "harness.allowedSigners", "/tmp/the-agents-signers")
    _left_running(job, result, "checking c2", said.append)
    assert result.unrunnable == 1 and result.rows[-1]["left_running"]
    assert "left running" in said[0] and "found before checking c2" in said[0] and "config" in said[0]


# In CI's re-run only: starts a process in a session of its own (out of the run's group), which writes its pid and
# sleeps; waits until it has written, then exits (ESCAPES) or waits for it to end (WAITS, after telling it to).
SESSION_CHILD = """import os, pathlib, subprocess, sys, time
if "harness-rerun-" in os.getcwd():
    pidfile = pathlib.Path(%r)
    p = subprocess.Popen([sys.executable, "-c", "import os, pathlib, sys, time; pathlib.Path(sys.argv[1]).write_text("
                          "str(os.getpid())); time.sleep(120 if sys.argv[2] == 'stay' else 0)", str(pidfile), %r],
                         start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not pidfile.exists():
        time.sleep(0.01)
    if %r:
        p.wait()
"""


def _running(pid: int) -> bool:
    from support.processes import gone

    return not gone(pid, within=5)


def _end(pidfile: Path) -> None:
    """The test's own processes that still run (each names ``pidfile`` on its command line: never another's)."""
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and str(pidfile).encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                os.kill(int(entry), 9)
        except OSError:
            pass


def test_a_process_a_re_run_starts_in_a_session_of_its_own_is_ended_and_poisons_the_job(h, repo, tmp_path):
    # F-0296: killing the run's group did not reach it; it ran on through the job, free to drop a conftest.py
    # into a later commit's worktree (verify_checkout compares tracked files only).
    python, _ = venv(tmp_path / "ci-venv")
    pidfile = tmp_path / "daemon.pid"
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(SESSION_CHILD % (str(pidfile), "stay", False))
    base = commit_all_ok(repo, "a check that leaves a process running in a session of its own")
    first = done(h, repo, "First")
    second = done(h, repo, "Second")
    code, doc, err = rerun(h, base)
    pid = int(pidfile.read_text())
    try:
        assert not _running(pid), "the process the re-run left running still runs"
        assert code == 2, err
        poisoner = reruns(doc, first)["unit_test"]
        assert poisoner["result"] == UNRUNNABLE and any(f"pid {pid}" in p for p in poisoner["poisoned"])
        assert "left a process running" in poisoner["error"] and first[:12] in poisoner["error"]
        assert all(r["result"] == UNRUNNABLE and "outcome" not in r for r in reruns(doc, second).values())
        assert "poisoning" in err and "nothing more runs in this job" in err
    finally:
        _end(pidfile)


def test_a_re_run_that_waits_for_its_child_in_a_session_of_its_own_is_not_poisoning(h, repo, tmp_path):
    python, _ = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(SESSION_CHILD % (str(tmp_path / "child.pid"), "go", True))
    base = commit_all_ok(repo, "a check that starts a process in a session of its own and waits for it")
    first = done(h, repo, "First")
    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert all(r["result"] == "reproduces" and "poisoned" not in r for r in reruns(doc, first).values())


def test_a_process_a_reaping_run_the_guard_did_not_see_left_is_poisoning_found_after(repo):
    # PASS_TO_PASS's runs (harness.evidence.pass_to_pass.run_cases) reap too, and hand no result to the guard: what
    # they left outside their group is found by the guard's next look, as the audit's own steps find it.
    from harness import runner
    from harness.gitio.process_git import ProcessGit
    from harness.history.audit import AuditResult, _left_running
    from harness.history.rerun.isolation import Job, RerunGuard

    job = Job(lambda: RerunGuard(ProcessGit(repo)))
    job.get()
    pidfile = repo.parent / "left.pid"
    script = SESSION_CHILD.replace('if "harness-rerun-" in os.getcwd():', "if True:") % (str(pidfile), "stay", False)
    r = runner.run_command([PY, "-c", script], echo=False, reap=True, timeout=120)
    pid = int(pidfile.read_text())
    try:
        assert r.outcome == "passed" and not _running(pid)
        result = AuditResult("audit", ["c1"], rows=[{"commit": "c1", "ok": True}])
        said: list[str] = []
        _left_running(job, result, "checking c2", said.append)
        assert result.unrunnable == 1 and any(f"pid {pid}" in p for p in result.rows[-1]["left_running"])
        assert "left a process running" in said[0] and "nothing more runs in this job" in said[0]
    finally:
        _end(pidfile)


def test_where_no_subreaper_is_offered_the_audit_says_what_it_cannot_find(h, repo, tmp_path, monkeypatch):
    from harness import descendants

    monkeypatch.setattr(descendants, "available", lambda: False)
    configure(repo, PASS_CMD, PASS_CMD)
    base = commit_all_ok(repo, "config")
    done(h, repo, "First")
    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert err.count("no child subreaper") == 1 and "fan the re-run out" in err


def test_the_audit_s_trust_root_is_read_before_any_re_run(repo):
    from harness.gitio.process_git import ProcessGit
    from harness.signatures.trust import Signers

    signers = Signers(lambda: ProcessGit(repo))
    assert signers.settle() is None and signers.asked == 0  # read, not asked for
    git(repo, "config", "harness.allowedSigners", str(repo / "agents_signers"))
    (repo / "agents_signers").write_text("agent@x ssh-ed25519 AAAA\n")
    assert signers.external() is None  # what the config said before the re-runs could change it


# -- the checkout's code: an editable install of a src/ layout ----------------------------------------------

def test_a_correct_commit_is_measured_on_its_own_tree_not_on_the_broken_checkout(h, repo, tmp_path):
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 42)
    base = commit_all_ok(repo, "config, package")
    correct = done(h, repo, "Correct")
    answer(repo, 41)
    commit_all_ok(repo, "a later commit breaks it")  # what the CI checkout holds
    assert subprocess.run([str(python), "-c", CHECK], cwd=tmp_path).returncode == 1  # the checkout is broken

    code, doc, err = rerun(h, base)
    assert code == 0, err
    run = reruns(doc, correct)["unit_test"]
    assert run["result"] == "reproduces" and run["imports_from"] == [run["cwd"] + "/src"], run


def test_a_broken_commit_does_not_re_run_green_on_the_fixed_checkout(h, repo, tmp_path):
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")
    assert subprocess.run([str(python), "-c", CHECK], cwd=tmp_path).returncode == 0  # the checkout passes

    code, doc, err = rerun(h, base)
    assert code == 1, err
    run = reruns(doc, broken)["unit_test"]
    assert run["result"] == "does not reproduce" and run["exit_code"] == 1


def test_a_pth_that_puts_the_checkout_first_could_not_run_with_the_remedy(h, repo, tmp_path):
    """The tree cannot be put ahead of a .pth that inserts the checkout at the front of the import
    path: no verdict from the checkout's code — could not run, with what to do."""
    python = editable(tmp_path, repo, f"import sys; sys.path.insert(0, {str(repo / 'src')!r})\n")
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 42)
    base = commit_all_ok(repo, "config, package")
    sha = done(h, repo, "Correct")
    answer(repo, 41)
    commit_all_ok(repo, "a later commit breaks it")

    code, doc, err = rerun(h, base)
    assert code == 2 and doc["failed"] == 0, err
    runs = reruns(doc, sha)
    assert runs["unit_test"]["result"] == UNRUNNABLE and "outcome" not in runs["unit_test"]
    assert f"imports `calcpkg` from {repo / PKG}" in runs["unit_test"]["error"]
    assert REMEDY_LEAK in runs["unit_test"]["error"]


def test_a_copy_installed_from_the_checkout_serves_only_the_checkouts_own_commit(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 42)
    base = commit_all_ok(repo, "config, package")
    # `pip install .` from the checkout: a copy, and a record of where it came from.
    (site / "calcpkg").mkdir()
    (site / "calcpkg" / "__init__.py").write_text((repo / PKG).read_text())
    (site / "calcpkg-0.1.dist-info").mkdir()
    (site / "calcpkg-0.1.dist-info" / "direct_url.json").write_text(json.dumps({"url": repo.as_uri(), "dir_info": {}}))
    sha = done(h, repo, "Correct")
    (repo / "app.py").write_text("def answer():\n    return 42  # later\n")
    commit_all_ok(repo, "later work")  # the checkout moved on: the copy is not the audited commit's

    code, doc, err = rerun(h, base)
    assert code == 2, err
    error = reruns(doc, sha)["unit_test"]["error"]
    assert "installed from this checkout" in error and REMEDY_COPY in error

    git(repo, "reset", "-q", "--hard", sha)  # the checkout is the audited commit: its copy is its code
    code, doc, err = rerun(h, base)
    assert code == 0, err


# -- submodules -------------------------------------------------------------------------------------------

def submodule_repos(tmp_path: Path) -> Path:
    """`suite` (holding `deep`, itself a submodule) whose deepest folder holds the check: (suite)."""
    allow = ["-c", "protocol.file.allow=always"]
    deep, suite = tmp_path / "deep", tmp_path / "suite"
    for folder in (deep, suite):
        git(tmp_path, "init", "-q", str(folder))
    (deep / "check.py").write_text("import pathlib, sys\nsys.exit(0 if '42' in pathlib.Path('app.py').read_text() else 1)\n")
    git(deep, "add", "-A")
    git(deep, "commit", "-qm", "the check")
    git(suite, *allow, "submodule", "add", "-q", str(deep), "deep")
    git(suite, "commit", "-qm", "deep")
    return suite


def test_a_check_kept_in_a_nested_submodule_is_present_in_the_re_run(h, repo, tmp_path):
    suite = submodule_repos(tmp_path)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(suite), "suite")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", "--recursive")
    configure(repo, PASS_CMD, [PY, "suite/deep/check.py"])
    base = commit_all_ok(repo, "the suite, as a submodule")
    sha = done(h, repo, "Checked")
    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces"

    # CI checked out without submodules: the recorded commits are in no local copy.
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(repo), str(ci))
    assert not (ci / "suite" / "deep").exists()
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD", cwd=ci)
    assert r.code == 2, r.err
    run = reruns(json.loads(r.out), sha)["unit_test"]
    assert run["result"] == UNRUNNABLE and "submodule suite at" in run["error"] and "submodules: recursive" in run["error"]
    git(ci, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", "--recursive")
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD", cwd=ci)
    assert r.code == 0, r.err


# -- the detection, on fabricated site-packages ---------------------------------------------------------------

def test_pointers_are_read_from_pth_lines_finders_egg_links_and_direct_urls(tmp_path):
    site, checkout = tmp_path / "site-packages", tmp_path / "checkout"
    site.mkdir()
    (site / "plain.pth").write_text(f"# a comment\n\n{checkout / 'src'}\nrelative-dir\n")
    (site / "__editable__.pkg-1.0.pth").write_text("import __editable___pkg_1_0_finder; "
                                                    "__editable___pkg_1_0_finder.install()\n")
    (site / "__editable___pkg_1_0_finder.py").write_text(f"MAPPING: dict = {{'pkg': {str(checkout / 'lib' / 'pkg')!r}}}\n"
                                                          "def install():\n    pass\n")
    (site / "legacy.egg-link").write_text(f"{checkout}\n.\n")
    for name, doc in {"ed-1.dist-info": {"url": checkout.as_uri(), "dir_info": {"editable": True}},
                      "cp-1.dist-info": {"url": checkout.as_uri(), "dir_info": {}},
                      "ar-1.dist-info": {"url": "https://example.org/ar-1.tar.gz", "archive_info": {}}}.items():
        (site / name).mkdir()
        (site / name / "direct_url.json").write_text(json.dumps(doc))
    found = {(Path(p.file).name, p.target, p.kind) for p in python_site.pointers([site, tmp_path / "missing"])}
    assert found == {
        ("plain.pth", str(checkout / "src"), "path"), ("plain.pth", str(site / "relative-dir"), "path"),
        ("__editable__.pkg-1.0.pth", str(checkout / "lib" / "pkg"), "finder"),
        ("legacy.egg-link", str(checkout), "path"),
        ("direct_url.json", str(checkout), "editable"), ("direct_url.json", str(checkout), "copy"),
    }


def test_only_pointers_into_the_repositorys_own_code_outside_the_worktree_leak(tmp_path):
    checkout, tree = tmp_path / "checkout", tmp_path / "tree"
    (checkout / "lib" / "pkg").mkdir(parents=True)
    (checkout / "lib" / "pkg" / "__init__.py").write_text("")
    (checkout / "src").mkdir()
    P = python_site.Pointer
    found = [P("a.pth", str(checkout / "src"), "path"),
             P("i.pth", str(checkout / "src"), "finder"),  # `sys.path.insert(0, '…/src')` in a .pth
             P("f.pth", str(checkout / "lib" / "pkg"), "finder"),
             P("f.pth", str(checkout / "lib" / "pkg" / "__init__.py"), "finder"),
             P("f.pth", str(checkout / "lib" / "mod.py"), "finder"),
             P("v.pth", str(checkout / ".venv" / "lib" / "site-packages" / "x"), "path"),  # the environment
             P("t.pth", str(tree / "src"), "path"),                                       # already the tree
             P("o.pth", str(tmp_path / "elsewhere"), "path"),                              # not the repository
             P("d.json", str(checkout), "editable")]
    leaks = python_site.leaks(found, checkout, tree, lambda first: first in ("", "src", "lib"))
    assert [(k.pointer.file, k.rel) for k in leaks] == [("a.pth", "src"), ("i.pth", "src"), ("f.pth", "lib"),
                                                        ("f.pth", "lib"), ("f.pth", "lib"), ("d.json", "")]


def test_what_a_folder_provides_on_the_import_path_and_what_resolves_outside_the_tree(tmp_path):
    src = tmp_path / "src"
    for rel in ("pkg/__init__.py", "mod.py", "_ext.cpython-311-x86_64-linux-gnu.so", "data/readme.txt",
                "not-a-name.py", "nsdir/mod.py"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("")
    assert python_site.importable(src) == ["_ext", "mod", "pkg"]
    checkout, tree = tmp_path / "checkout", tmp_path / "tree"
    resolved = {"a": str(checkout / "src" / "a.py"), "b": str(tree / "src" / "b.py"), "c": "/usr/lib/c.py", "d": None}
    assert python_site.outside(resolved, checkout, tree) == {"a": str(checkout / "src" / "a.py")}


def test_the_re_run_environment_never_carries_pythonpath(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYTHONHOME", str(tmp_path))
    assert "PYTHONPATH" not in clean_env() and "PYTHONHOME" not in clean_env()


# -- the fingerprint ----------------------------------------------------------------------------------------------

def test_the_fingerprint_sees_what_poisons_and_lets_a_new_bytecode_cache_be(tmp_path):
    site, home = tmp_path / "site-packages", tmp_path / "home"
    (site / "pkg" / "__pycache__").mkdir(parents=True)
    (site / "__pycache__").mkdir()
    home.mkdir()
    (site / "pkg" / "core.py").write_text("X = 1\n")
    (site / "pkg" / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"old")
    (site / "__pycache__" / "top.cpython-311.pyc").write_bytes(b"old")
    (site / "top.py").write_text("Y = 1\n")
    (home / ".gitconfig").write_text("[user]\n\tname = CI\n")
    spots = fingerprint.Spots(walked={str(site)})
    spots.update(fingerprint.home_spots(str(home)))
    before = fingerprint.take(spots)

    (site / "pkg" / "__pycache__" / "other.cpython-311.pyc").write_bytes(b"new")  # honest caches
    (site / "__pycache__" / "other.cpython-311.pyc").write_bytes(b"new")
    (site / "pkg" / "icons").mkdir()
    assert fingerprint.changes(before, fingerprint.take(spots)) == []

    stat = (site / "top.py").stat()
    (site / "top.py").write_text("Y = 2\n")  # same size, its time put back: the content still tells
    os.utime(site / "top.py", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    (site / "__pycache__" / "top.cpython-311.pyc").write_bytes(b"forged")
    (site / "sitecustomize.py").write_text(EVERY_EXIT_PASSES)
    (site / "pkg" / "icons" / "new.svg").write_text("<svg/>")  # an asset: by name
    (site / "pkg" / "core.py").write_text("X = 2  # patched in place\n")
    (home / ".gitconfig").write_text("[core]\n\tfsmonitor = evil\n")
    assert fingerprint.changes(before, fingerprint.take(spots)) == sorted([
        f"changed {site / 'top.py'}", f"changed {site / '__pycache__' / 'top.cpython-311.pyc'}",
        f"added {site / 'sitecustomize.py'}", f"changed {site / 'pkg' / 'core.py'}", f"changed {home / '.gitconfig'}",
        f"added {site / 'pkg' / 'icons' / 'new.svg'}"])


def test_a_file_deep_in_the_interpreters_standard_library_is_fingerprinted(tmp_path):
    # Read 134's F-0474: the standard library's folders were listed one level deep, so a build re-run that rewrote
    # unittest/case.py (assertEqual doing nothing) in CI's interpreter decided every later re-run, unseen.
    prefix = tmp_path / "prefix"
    stdlib, dynload = prefix / "lib/python3.11", prefix / "lib/python3.11/lib-dynload"
    (stdlib / "unittest").mkdir(parents=True)
    dynload.mkdir()
    (prefix / "bin").mkdir()
    (stdlib / "unittest/case.py").write_text("def assertEqual(a, b):\n    assert a == b\n")
    (stdlib / "os.py").write_text("")
    py = python_site.Python(str(prefix / "bin/python3"), str(prefix), str(prefix), (), (
        str(tmp_path / "prefix/lib/python311.zip"), str(stdlib), str(dynload)))
    from harness.history.rerun.isolation import interpreter_spots

    spots = interpreter_spots([py])
    before = fingerprint.take(spots)
    case = stdlib / "unittest/case.py"
    stat = case.stat()
    case.write_text("def assertEqual(a, b):\n    return None  # quiet\n"[:stat.st_size])
    os.utime(case, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # its size and time as they were
    (stdlib / "unittest" / "__pycache__").mkdir()
    (stdlib / "unittest" / "__pycache__" / "case.cpython-311.pyc").write_bytes(b"an honest cache")
    assert fingerprint.changes(before, fingerprint.take(spots)) == [f"changed {case}"]
    (stdlib / "requests").mkdir()  # a package found before site-packages' of the same name
    (stdlib / "requests/__init__.py").write_text("")
    assert f"added {stdlib / 'requests/__init__.py'}" in fingerprint.changes(before, fingerprint.take(spots))


def test_a_site_folder_below_the_standard_library_that_the_interpreter_does_not_import_is_read_by_name(tmp_path):
    # F-0474's fix reads the standard library in full, but not the base interpreter's own site-packages kept inside
    # it, which a virtualenv does not import (fifty thousand files here); an interpreter's own site folder is read.
    from harness.history.rerun.isolation import interpreter_spots

    stdlib = tmp_path / "base/lib/python3.11"
    (stdlib / "site-packages/pkg").mkdir(parents=True)
    (stdlib / "site-packages/pkg/mod.py").write_text("")
    venv = python_site.Python(str(tmp_path / "venv/bin/python3"), str(tmp_path / "venv"), str(tmp_path / "base"), (),
                              (str(stdlib),))
    assert str(stdlib / "site-packages/pkg/mod.py") not in fingerprint.take(interpreter_spots([venv]))
    system = python_site.Python(str(tmp_path / "base/bin/python3"), str(tmp_path / "base"), str(tmp_path / "base"),
                                (str(stdlib / "site-packages"),), (str(stdlib), str(stdlib / "site-packages")))
    assert str(stdlib / "site-packages/pkg/mod.py") in fingerprint.take(interpreter_spots([system]))


def test_f0487_an_interpreter_s_own_site_folder_is_read_in_full_whoever_else_is_asked_about(tmp_path):
    # Read 136's F-0487: the harness's own virtualenv (of CI's interpreter) pruned that interpreter's site-packages,
    # and the pruning outlived the merge with CI's interpreter, whose own site folder it is.
    from harness.history.rerun.isolation import interpreter_spots

    stdlib = tmp_path / "base/lib/python3.11"
    (stdlib / "site-packages/pkg").mkdir(parents=True)
    (stdlib / "site-packages/pkg/mod.py").write_text("")
    ci = python_site.Python(str(tmp_path / "base/bin/python3"), str(tmp_path / "base"), str(tmp_path / "base"),
                            (str(stdlib / "site-packages"),), (str(stdlib), str(stdlib / "site-packages")))
    own = python_site.Python(str(tmp_path / "venv/bin/python3"), str(tmp_path / "venv"), str(tmp_path / "base"), (),
                             (str(stdlib),))
    for order in ([ci, own], [own, ci]):
        spots = interpreter_spots([order[0]])
        spots.update(interpreter_spots([order[1]]))
        assert str(stdlib / "site-packages/pkg/mod.py") in fingerprint.take(spots)


def test_a_refusal_of_the_tree_environment_makes_pass_to_pass_could_not_run(h, repo, base):
    """PASS_TO_PASS re-measures in worktrees of its own: each is handed to the job's environment
    maker, and a refusal there is "could not run", never a verdict."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.rerun.base_suite import execute_pass_to_pass
    from harness.history.rerun.plan import Planned
    from harness.signatures.trust import Signers
    from harness.store import settings
    from harness.store.layout import Layout

    from support.protected_project import CALC, TEST_CMD, base_commit, write

    start = base_commit(repo, base)
    write(repo, {"calc.py": CALC + "# faster\n"})
    sha = commit_all_ok(repo, "honest")
    item = Planned(base, "pass_to_pass", "pass_to_pass", "rec", TEST_CMD, False, None, ("passed", None), "recorded",
                   ".harness/local/junit.xml", start, settings.load_gate(Layout(repo)).suite)
    handed: list[Path] = []

    def refuse(path: Path, environ) -> dict:
        handed.append(path)
        raise HarnessError("imports the checkout's code", hint="the remedy")

    g = Git(repo)
    row, problem = execute_pass_to_pass(g, TreeSource(g, g.commit_tree(sha), "c"), item, sha, lambda line: None,
                                        [start], refuse, signers=Signers())
    assert problem is None and row["result"] == UNRUNNABLE and row["error"] == "imports the checkout's code — the remedy"
    assert handed and all(p != repo and not str(p).startswith(str(repo)) for p in handed)


def test_a_path_folder_of_the_checkouts_code_is_swapped_for_the_trees(repo, tmp_path):
    """A program CI finds on PATH in the checkout's tracked code is the tree's in the re-run (or none,
    when the commit has no such folder); an untracked folder there (a virtualenv's bin/) stays."""
    from harness.gitio.git import Git
    from harness.history.rerun.isolation import RerunGuard

    (repo / "bin").mkdir()
    (repo / "bin" / "tool").write_text("#!/bin/sh\nexit 0\n")
    commit_all_ok(repo, "a tool")
    (repo / ".venv" / "bin").mkdir(parents=True)
    env = {"PATH": os.pathsep.join([str(repo / "bin"), str(repo / ".venv" / "bin"), "/usr/bin"]),
           "HOME": str(tmp_path / "home")}
    guard = RerunGuard(Git(repo), environ=env)
    with_bin, without = tmp_path / "tree", tmp_path / "other"
    (with_bin / "bin").mkdir(parents=True)
    without.mkdir()
    assert guard.tree_env(with_bin, env)["PATH"].split(os.pathsep) == [str(with_bin / "bin"), str(repo / ".venv" / "bin"),
                                                                      "/usr/bin"]
    assert guard.tree_env(without, env)["PATH"].split(os.pathsep) == [str(repo / ".venv" / "bin"), "/usr/bin"]


# -- interpreters a script starts by its absolute path (#24's task F-0010, F-0011) ----------------------

def test_a_python_a_script_starts_by_its_path_is_fingerprinted_before_the_run(h, repo, tmp_path):
    python, site = venv(tmp_path / "tools-venv")  # the project's test environment, not on PATH
    poison = site / "sitecustomize.py"
    (repo / "run_tests.sh").write_text(f"exec {python} check.py\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
    (repo / "check.py").write_text(writes(poison, EVERY_EXIT_PASSES))
    base = commit_all_ok(repo, "tests run by a script")
    first = done(h, repo, "First", after_unit_test=poison.unlink)
    (repo / "check.py").write_text(FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    assert code == 2, err
    assert f"added {poison}" in reruns(doc, first)["unit_test"]["poisoned"]
    assert reruns(doc, second)["unit_test"]["result"] == UNRUNNABLE


def test_an_editable_install_a_script_starts_by_its_path_is_redirected_to_the_tree(h, repo, tmp_path):
    python = editable(tmp_path, repo)
    (repo / "run_tests.sh").write_text(f"exec {python} -c '{CHECK}'\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")

    code, doc, err = rerun(h, base)
    assert code == 1, err
    run = reruns(doc, broken)["unit_test"]
    assert run["result"] == "does not reproduce" and run["exit_code"] == 1


def test_the_pythons_a_script_names_are_found_two_files_deep(tmp_path):
    from harness.history.rerun.script_pythons import scripted_pythons

    python, _ = venv(tmp_path / "v")
    files = {"run.sh": b"set -e\nsh tools/test.sh\n", "tools/test.sh": f"V={tmp_path}/v/bin\n$V/python -m x\n".encode(),
             "plain.sh": b"python3 -m pytest\n"}
    def folders(found: list[str]) -> list[Path]:
        return [Path(p).parent for p in found]  # (the virtualenv's python3 or python: one interpreter)

    assert folders(scripted_pythons(["sh", "run.sh"], files.get)) == [python.parent]  # by its virtualenv's folder
    assert folders(scripted_pythons("sh ./tools/test.sh", files.get)) == [python.parent]
    assert scripted_pythons(["sh", "plain.sh"], files.get) == []  # by name: PATH's, probed already
    assert scripted_pythons(["sh", "missing.sh"], files.get) == []


# -- an interpreter learned after the job's first fingerprint (self-found 32's F-0576) -----------------------------

def _guard_through_a_link(repo: Path, tmp_path: Path):
    """A job's guard whose PATH reaches a virtualenv's bin/ through a symlink (as /bin reaches /usr/bin on a merged-/usr
    system), that then learns the virtualenv's python: (the guard, that bin/)."""
    from harness.gitio.git import Git
    from harness.history.rerun.isolation import RerunGuard

    python, _ = venv(tmp_path / "tools")
    (tmp_path / "a-link-to-tools-bin").symlink_to(python.parent)
    env = {"PATH": os.pathsep.join([str(tmp_path / "a-link-to-tools-bin"), "/usr/bin"]), "HOME": str(tmp_path / "home")}
    guard = RerunGuard(Git(repo), environ=env)
    guard.learn([str(python)])
    return guard, python.parent


def test_f0576_an_interpreter_learned_later_leaves_nothing_changed_when_nothing_ran(repo, tmp_path):
    guard, _ = _guard_through_a_link(repo, tmp_path)
    assert guard.after("0" * 40, "nothing") == []
    assert guard.poisoned is None


def test_f0576_what_a_run_writes_into_the_learned_interpreters_folder_is_still_found(repo, tmp_path):
    guard, bin_ = _guard_through_a_link(repo, tmp_path)
    (bin_ / "pytest").write_text("#!/bin/sh\nexit 0\n")
    found = guard.after("0" * 40, "a check")
    assert any(line.startswith("added ") and line.endswith("/pytest") for line in found), found
    assert guard.poisoned


def test_f0576_a_change_made_before_an_interpreter_is_learned_is_not_taken_into_the_new_fingerprint(repo, tmp_path):
    from harness.gitio.git import Git
    from harness.history.rerun.isolation import RerunGuard

    python, _ = venv(tmp_path / "tools")
    guard = RerunGuard(Git(repo), environ={"PATH": "/usr/bin", "HOME": str(tmp_path / "home")})
    (repo / ".git" / "hooks" / "pre-push").write_text("#!/bin/sh\nexit 0\n")  # by a process an earlier run left
    guard.learn([str(python)])
    assert guard.poisoned and "pre-push" in guard.poisoned


@pytest.mark.slow  # tens of thousands of files
def test_f0578_an_interpreter_learned_later_pushes_nothing_already_watched_past_the_cap(repo, tmp_path, monkeypatch):
    # Read 170: learning an interpreter re-took everything under one cap; a big environment whose path sorts first
    # used it up, and CI's interpreter, watched until then, fell past it: a .pth planted there went unseen.
    from harness.gitio.git import Git
    from harness.history.rerun.isolation import RerunGuard

    ci, ci_site = venv(tmp_path / "ci")  # CI's interpreter, on PATH
    big, big_site = venv(tmp_path / "a")  # sorts first
    guard = RerunGuard(Git(repo), environ={"PATH": str(ci.parent), "HOME": str(tmp_path / "home")})
    cap = len(guard.baseline) + 50  # what the job watched fits; the big environment alone does not
    monkeypatch.setattr(fingerprint, "ENTRY_CAP", cap)
    for i in range(cap):
        (big_site / f"m{i}.py").touch()
    guard.learn([str(big)])
    (ci_site / "zz_every_exit_passes.pth").write_text(EVERY_EXIT_PASSES)
    found = guard.after("0" * 40, "a check")
    assert f"added {ci_site / 'zz_every_exit_passes.pth'}" in found, found


def test_f0578_a_fingerprint_that_reaches_its_cap_is_said_once(h, repo, tmp_path, monkeypatch):
    monkeypatch.setattr(fingerprint, "ENTRY_CAP", 10)
    configure(repo, PASS_CMD, PASS_CMD)
    base = commit_all_ok(repo, "config")
    done(h, repo, "First")
    done(h, repo, "Second")
    code, _, err = rerun(h, base)
    assert code == 0, err
    assert err.count("not watched") == 1 and "10 entries" in err, err


# -- a configuration an earlier re-run writes above the later worktrees (read 84's F-0295) -------------------------

WRITES_A_CONFIGURATION_ABOVE = f'''import os
from pathlib import Path

import pytest


def test_ok():
    if "harness-rerun-" in os.getcwd():  # only in CI's re-run: the laptop's run leaves nothing
        folder = Path.cwd().parent.parent  # the job's temporary folder (its own TMPDIR is another: F-0298)
        (folder / "pytest.ini").write_text("[pytest]\\n")
        (folder / "conftest.py").write_text({PASSES_EVERY_FAILURE!r})
'''


def test_a_configuration_an_earlier_rerun_writes_above_the_worktrees_decides_no_later_verdict(h, repo, tmp_path,
                                                                                              monkeypatch):
    # Each re-run's worktree is made in the job's temporary folder, which the commands it runs may write: pytest
    # searched the folders above a worktree whose root holds no configuration and loaded the conftest.py it found.
    import tempfile

    scratch = tmp_path / "ci-tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # tempfile's memo of the folder, read once per process
    configure(repo, PASS_CMD, [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
    (repo / "tests").mkdir()
    (repo / "tests" / "test_it.py").write_text(WRITES_A_CONFIGURATION_ABOVE)
    base = commit_all_ok(repo, "a test that writes a pytest configuration into the temporary folder in CI")
    done(h, repo, "First")
    (repo / "tests" / "test_it.py").write_text("def test_ok():\n    assert False\n")
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    assert (scratch / "conftest.py").exists(), err  # the earlier re-run wrote it above the later worktrees
    # Refused (pytest's search ends at the worktree's root), or poisoning (the names tools resolve upward are
    # fingerprinted above the worktrees: read 86's F-0298): never a verdict the conftest.py chose.
    result = reruns(doc, second)["unit_test"]["result"]
    assert (code, result) in ((1, "does not reproduce"), (2, "could not run")), err
