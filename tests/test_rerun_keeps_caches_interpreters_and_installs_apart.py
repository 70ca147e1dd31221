"""CI's re-runs stay apart and on their commit's own code, against what the second review of the
re-run found: bytecode caches, interpreters a script starts, symlinked and strict editable installs,
a module only the checkout has, the object store, same-size rewrites (F-0002..F-0009).

Each test runs a real `harness audit --rerun` over commits taken to DONE, in CI's interpreter (a bare
virtualenv the test may write into); beside each guard, the honest case a careless guard would refuse.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

from harness.history.rerun.execute import UNRUNNABLE

from support.gitrepo import commit_all_ok, git
from support.records import PASS_CMD, configure
from support.rerun_range import (
    CHECK,
    EVERY_EXIT_PASSES,
    FAILS,
    answer,
    done,
    editable,
    rerun,
    reruns,
    venv,
    writes,
)

CACHE_TAG = sys.implementation.cache_tag


def first_on_path(monkeypatch, folder: Path) -> None:
    """``folder`` on PATH right after the suite's own `python3` (home/bin): its `python` is what a
    script's `python` finds, while `python3` stays the suite's."""
    parts = os.environ["PATH"].split(os.pathsep)
    monkeypatch.setenv("PATH", os.pathsep.join([parts[0], str(folder), *parts[1:]]))


# -- F-0002: bytecode caches --------------------------------------------------------------------------------------

# Writes, straight into the interpreter's __pycache__, a cache of helper_mod compiled from a poisoned source
# and stamped with the real source's size and time: an interpreter reading that folder trusts it.
PLANT_CACHE = r'''
import importlib._bootstrap_external as be, sys
from pathlib import Path
site = Path(sys.argv[1]); src = site / "helper_mod.py"; st = src.stat()
code = compile("VALUE = 1\nimport atexit, os\natexit.register(lambda: os._exit(0))\n", str(src), "exec")
cache = site / "__pycache__" / f"helper_mod.{sys.implementation.cache_tag}.pyc"
cache.parent.mkdir(exist_ok=True)
cache.write_bytes(be._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size))
'''


def test_a_bytecode_cache_planted_in_the_interpreter_does_not_reach_the_next_rerun(h, repo, tmp_path):
    """F-0002: a re-run plants a cache matching its source's size and time; the next re-run, reading its
    caches from a fresh folder of its own, imports the true source: the forged DONE is contradicted."""
    python, site = venv(tmp_path / "ci-venv")
    (site / "helper_mod.py").write_text("VALUE = 1\n")
    planted = site / "__pycache__" / f"helper_mod.{CACHE_TAG}.pyc"
    configure(repo, PASS_CMD, [str(python), "check.py", str(site)])
    (repo / "check.py").write_text(PLANT_CACHE)
    base = commit_all_ok(repo, "a check that passes")
    first = done(h, repo, "First", after_unit_test=lambda: planted.unlink(missing_ok=True))
    (repo / "check.py").write_text("import helper_mod, sys\nsys.exit(1)  # fails\n")
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    assert planted.exists()  # the first re-run planted it
    assert reruns(doc, first)["unit_test"]["result"] == "reproduces"
    later = reruns(doc, second)["unit_test"]
    assert later["result"] == "does not reproduce" and later["exit_code"] == 1, later
    assert code == 1, err


def test_an_honest_rerun_compiling_what_it_imports_leaves_no_cache_in_the_interpreter(h, repo, tmp_path):
    """F-0002, the honest case: a run compiles the modules it imports into its own cache folder (removed
    after), never into CI's interpreter; no poisoning, every verdict reproduces."""
    python, site = venv(tmp_path / "ci-venv")
    (site / "helper_mod.py").write_text("VALUE = 1\n")
    (site / "helperpkg").mkdir()
    (site / "helperpkg" / "__init__.py").write_text("from .core import VALUE\n")
    (site / "helperpkg" / "core.py").write_text("VALUE = 1\n")
    configure(repo, PASS_CMD, [str(python), "-c", "import helper_mod, helperpkg, sys; sys.exit(helperpkg.VALUE != 1)"])
    base = commit_all_ok(repo, "config")
    first = done(h, repo, "First")
    second = done(h, repo, "Second")
    for cache in [*site.rglob("*.pyc")]:
        cache.unlink()  # what the laptop's runs compiled

    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert all(r["result"] == "reproduces" and "poisoned" not in r for c in (first, second)
               for r in reruns(doc, c).values())
    assert list(site.rglob("*.pyc")) == []


# -- F-0003, F-0004: an interpreter a script starts ----------------------------------------------------------------

def test_an_interpreter_on_path_that_a_script_starts_is_fingerprinted(h, repo, tmp_path, monkeypatch):
    """F-0003: `sh run_tests.sh` starts `python` of a virtualenv on PATH (not the first `python3`): its
    site-packages are fingerprinted too, and a run that writes a sitecustomize there is poisoning."""
    python, site = venv(tmp_path / "tools-venv")
    first_on_path(monkeypatch, python.parent)
    poison = site / "sitecustomize.py"
    (repo / "run_tests.sh").write_text("exec python check.py\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
    (repo / "check.py").write_text(writes(poison, EVERY_EXIT_PASSES))
    base = commit_all_ok(repo, "tests run by a script")
    first = done(h, repo, "First", after_unit_test=poison.unlink)
    (repo / "check.py").write_text(FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    assert code == 2 and doc["failed"] == 0, err
    poisoner = reruns(doc, first)["unit_test"]
    assert poisoner["result"] == UNRUNNABLE and f"added {poison}" in poisoner["poisoned"], poisoner
    later = reruns(doc, second)["unit_test"]
    assert later["result"] == UNRUNNABLE and "outcome" not in later and first[:12] in later["error"]


def test_an_editable_install_in_an_interpreter_on_path_that_a_script_starts_is_redirected(h, repo, tmp_path,
                                                                                          monkeypatch):
    """F-0004: the virtualenv on PATH a script's `python` is holds an editable install of the checkout's
    src/: the re-run imports the commit's own src/ instead, and the broken commit does not reproduce."""
    python = editable(tmp_path, repo)
    first_on_path(monkeypatch, python.parent)
    (repo / "run_tests.sh").write_text(f"exec python -c '{CHECK}'\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")

    code, doc, err = rerun(h, base)
    run = reruns(doc, broken)["unit_test"]
    assert run["result"] == "does not reproduce" and run["imports_from"][0] == run["cwd"] + "/src", run
    assert code == 1, err


# -- F-0005, F-0009: symlinked and strict editable installs -------------------------------------------------------

def broken_then_fixed(h, repo: Path, python: Path) -> tuple[str, str]:
    """A forged DONE on a broken calcpkg, the checkout fixed after it: (the range's base, the broken commit)."""
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / ".gitignore").write_text("build/\n")
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")
    return base, broken


def test_a_package_symlinked_into_site_packages_from_the_checkout_is_redirected(h, repo, tmp_path):
    """F-0005: `flit install --symlink`: site-packages/calcpkg is a link to the checkout's src/calcpkg;
    the re-run imports the commit's src/ first, and the broken commit does not reproduce."""
    python, site = venv(tmp_path / "ci-venv")
    os.symlink(repo / "src" / "calcpkg", site / "calcpkg")
    base, broken = broken_then_fixed(h, repo, python)

    code, doc, err = rerun(h, base)
    run = reruns(doc, broken)["unit_test"]
    assert run["result"] == "does not reproduce" and run["imports_from"][0] == run["cwd"] + "/src", run
    assert code == 1, err


def test_a_strict_editable_link_tree_in_the_checkouts_build_folder_is_redirected(h, repo, tmp_path):
    """F-0009: setuptools' editable_mode=strict: a .pth names a link tree under the checkout's ignored
    build/ whose files link to the checkout's src/: that is the checkout's code, not the environment."""
    python, site = venv(tmp_path / "ci-venv")
    base, broken = broken_then_fixed(h, repo, python)
    tree = repo / "build" / "__editable__.calcpkg-0.1-py3-none-any"
    (tree / "calcpkg").mkdir(parents=True)
    os.symlink(repo / "src" / "calcpkg" / "__init__.py", tree / "calcpkg" / "__init__.py")
    (site / "__editable__.calcpkg-0.1.pth").write_text(f"{tree}\n")

    code, doc, err = rerun(h, base)
    run = reruns(doc, broken)["unit_test"]
    assert run["result"] == "does not reproduce" and run["imports_from"][0] == run["cwd"] + "/src", run
    assert code == 1, err


def test_a_non_editable_install_and_an_ignored_build_folder_are_the_environment(h, repo, tmp_path):
    """F-0005/F-0009, the honest case: a dependency copied into site-packages, a link there to a folder
    outside the checkout, and a .pth naming an ignored folder of the checkout without links into its code
    are the environment: nothing is redirected, the correct commit reproduces."""
    python, site = venv(tmp_path / "ci-venv")
    (site / "depmod.py").write_text("OK = True\n")
    (tmp_path / "vendored" / "linkedpkg").mkdir(parents=True)
    (tmp_path / "vendored" / "linkedpkg" / "__init__.py").write_text("OK = True\n")
    os.symlink(tmp_path / "vendored" / "linkedpkg", site / "linkedpkg")
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build" / "gen").mkdir(parents=True)
    (repo / "build" / "gen" / "genmod.py").write_text("OK = True\n")
    (site / "generated.pth").write_text(f"{repo / 'build' / 'gen'}\n")
    configure(repo, PASS_CMD, [str(python), "-c", "import depmod, linkedpkg, genmod, sys; "
                               "sys.exit(not (depmod.OK and linkedpkg.OK and genmod.OK))"])
    base = commit_all_ok(repo, "config")
    sha = done(h, repo, "Correct")

    code, doc, err = rerun(h, base)
    assert code == 0, err
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == "reproduces" and "imports_from" not in run, run


# -- F-0006: a module only the checkout has --------------------------------------------------------------------------

def test_a_module_the_commit_lacks_is_not_imported_from_the_checkout(h, repo, tmp_path):
    """F-0006: with an editable src/ install, a package the checkout has and the commit lacks is not found
    in the re-run (as on a fresh runner at that commit): the forged DONE could not run, not reproduce."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / "src" / "other").mkdir(parents=True)
    (repo / "src" / "other" / "__init__.py").write_text("")
    base = commit_all_ok(repo, "config; the package is not committed")
    lacking = done(h, repo, "Lacking", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "the package, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    assert run["result"] == UNRUNNABLE and run["exit_code"] == 1, run
    assert code == 2, err


def test_an_older_commit_without_a_newer_module_re_runs_true(h, repo, tmp_path):
    """F-0006, the honest case: a commit older than a module the checkout has re-runs with its true verdict;
    the module is absent for it (an import of it fails as ImportError), its own package is the commit's."""
    python = editable(tmp_path, repo)
    check = ("import calcpkg, sys\ntry:\n    import newmod\nexcept ImportError:\n    newmod = None\n"
             "sys.exit(calcpkg.answer() != 42 or newmod is not None)\n")
    configure(repo, PASS_CMD, [str(python), "-c", check])
    answer(repo, 42)
    base = commit_all_ok(repo, "config, package")
    older = done(h, repo, "Older")
    (repo / "src" / "newmod.py").write_text("NEW = True\n")
    commit_all_ok(repo, "a newer module")

    code, doc, err = rerun(h, base)
    assert code == 0, err
    run = reruns(doc, older)["unit_test"]
    assert run["result"] == "reproduces" and run["imports_from"][-1] == run["cwd"] + "/src", run


# -- F-0007: the object store ----------------------------------------------------------------------------------------

LATER = FAILS  # the later commit's check.py, known to its author in advance
LATER_OID = hashlib.sha1(b"blob %d\0" % len(LATER.encode()) + LATER.encode()).hexdigest()
REWRITE_OBJECT = f'''import os, subprocess, zlib
common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], capture_output=True,
                        text=True).stdout.strip()
path = os.path.join(common, "objects", "{LATER_OID[:2]}", "{LATER_OID[2:]}")
os.makedirs(os.path.dirname(path), exist_ok=True)
if os.path.exists(path):
    os.chmod(path, 0o644)
body = b"import sys\\nsys.exit(0)\\n"
open(path, "wb").write(zlib.compress(b"blob %d\\0" % len(body) + body))
'''


def test_a_later_commits_object_rewritten_by_a_rerun_makes_its_rerun_could_not_run(h, repo, tmp_path):
    """F-0007: a re-run rewrites the loose object of a later commit's blob; that commit's re-run tree is
    checked against the commit before anything runs there: could not run, naming the commit and object."""
    python, _ = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(REWRITE_OBJECT)
    base = commit_all_ok(repo, "a check that passes")
    planted = repo / ".git" / "objects" / LATER_OID[:2] / LATER_OID[2:]
    done(h, repo, "First", after_unit_test=lambda: planted.unlink(missing_ok=True))
    (repo / "check.py").write_text(LATER)
    second = done(h, repo, "Second", forge=True)
    assert git(repo, "rev-parse", "HEAD:check.py").stdout.strip() == LATER_OID

    code, doc, err = rerun(h, base)
    later = reruns(doc, second)["unit_test"]
    assert later["result"] == UNRUNNABLE and "outcome" not in later, later
    assert second[:12] in later["error"] and LATER_OID[:12] in later["error"] and "check.py" in later["error"]
    assert code == 2 and doc["failed"] == 0, err


def test_a_tree_checked_out_through_end_of_line_attributes_is_the_commits_tree(h, repo, tmp_path):
    """F-0007, the honest case: files git converts on checkout (`eol=crlf`) are the commit's blobs."""
    python, _ = venv(tmp_path / "ci-venv")
    (repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    (repo / "notes.txt").write_bytes(b"one\r\ntwo\r\n")  # committed as LF, checked out as CRLF
    configure(repo, PASS_CMD, [str(python), "-c", "import sys; sys.exit(open('notes.txt', 'rb').read() != "
                               "b'one\\r\\ntwo\\r\\n')"])
    base = commit_all_ok(repo, "config, a text file checked out with CRLF")
    sha = done(h, repo, "Correct")

    code, doc, err = rerun(h, base)
    assert code == 0, err
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces"


# -- F-0008: a same-size rewrite below the top level of site-packages -------------------------------------------------

ORIGINAL = "VALUE = 1\n" + "#" * 80 + "\n"
POISON = "import atexit, os\natexit.register(lambda: os._exit(0))\nVALUE = 1\n"
POISON += "#" * (len(ORIGINAL) - len(POISON) - 1) + "\n"
REWRITE_IN_PLACE = f'''import os, sys
path = os.path.join(sys.argv[1], "helperpkg", "core.py")
st = os.stat(path)
open(path, "w").write({POISON!r})
os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
'''


def test_a_same_size_rewrite_with_its_time_put_back_is_poisoning(h, repo, tmp_path):
    """F-0008: a re-run rewrites a dependency's module below the top level of site-packages with the same
    size and puts its modification time back: its change time still tells, and it is poisoning."""
    assert len(POISON) == len(ORIGINAL)
    python, site = venv(tmp_path / "ci-venv")
    core = site / "helperpkg" / "core.py"
    core.parent.mkdir()
    (site / "helperpkg" / "__init__.py").write_text("from .core import VALUE\n")
    core.write_text(ORIGINAL)
    configure(repo, PASS_CMD, [str(python), "-B", "check.py", str(site)])
    (repo / "check.py").write_text(REWRITE_IN_PLACE)
    base = commit_all_ok(repo, "a check that passes")
    first = done(h, repo, "First", after_unit_test=lambda: core.write_text(ORIGINAL))
    (repo / "check.py").write_text("import helperpkg\n" + FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    poisoner = reruns(doc, first)["unit_test"]
    assert poisoner["result"] == UNRUNNABLE and f"changed {core}" in poisoner["poisoned"], poisoner
    later = reruns(doc, second)["unit_test"]
    assert later["result"] == UNRUNNABLE and "outcome" not in later
    assert code == 2 and doc["failed"] == 0, err


def test_a_package_linked_into_site_packages_under_another_name_could_not_run(repo, tmp_path):
    """F-0005, the refusal: a link into the checkout under another name than its target's has no folder
    of the tree standing for it: "could not run", with the remedy."""
    from harness.errors import HarnessError
    from harness.gitio.git import Git
    from harness.history.rerun import python_site
    from harness.history.rerun.isolation import REMEDY_LEAK, RerunGuard

    answer(repo, 42)
    commit_all_ok(repo, "a package")
    site = tmp_path / "site-packages"
    site.mkdir()
    os.symlink(repo / "src" / "calcpkg", site / "calc")
    guard = RerunGuard(Git(repo), environ={"PATH": "", "HOME": str(tmp_path / "home")})
    guard.pythons = {"python": python_site.Python("python", str(tmp_path), str(tmp_path), (str(site),), ())}
    tree = tmp_path / "tree"
    (tree / "src" / "calcpkg").mkdir(parents=True)
    with pytest.raises(HarnessError) as refused:
        guard.tree_env(tree, {"PATH": ""})
    assert f"links `calc` to {repo / 'src' / 'calcpkg'}" in refused.value.message
    assert refused.value.hint == REMEDY_LEAK
