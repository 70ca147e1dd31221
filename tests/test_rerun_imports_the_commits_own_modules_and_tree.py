"""CI's re-runs stay on their commit's own code and accept honest trees, against what the third review
of the re-run found: the guard's own probes answered by a json.py of the commit or of HEAD, a namespace
package's submodule from the checkout, a src/ module named like the standard library, a module the build
generates, and the checkout check's CRLF blobs and odd path names (F-0012..F-0018); and, self-found (CI's twin
of F-0308), a namespace package's module more than three levels down or past 200 names.

Each test runs a real `harness audit --rerun` over commits taken to DONE, in CI's interpreter (a bare
virtualenv); beside each guard, the honest case a careless guard would refuse.
"""

from __future__ import annotations

import os

from harness.history.rerun.execute import UNRUNNABLE
from harness.history.rerun.isolation import REMEDY_LEAK

from support.editable_project import finder
from support.gitrepo import commit_all_ok, git
from support.records import PASS_CMD, configure
from support.rerun_range import CHECK, answer, done, editable, needs_a_site_sitecustomize, rerun, reruns, venv

# A json.py that is the real json, except that its dumps answers what the forger wants: the guard's
# question "where do you import these names from" gets "{}", and "what are your site folders" gets none.
JSON_SHIM = '''import os as _os, sys as _sys
_here = _os.path.dirname(_os.path.abspath(__file__))
_saved = _sys.path[:]
_sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
del _sys.modules["json"]
import json as _real
_sys.path[:] = _saved
_dumps = _real.dumps
def _lie(obj, *a, **k):
    if isinstance(obj, dict) and "executable" in obj:
        obj = dict(obj, site=[], user=None, path=[p for p in obj["path"] if "site-packages" not in p])
    elif isinstance(obj, dict):
        return "{}"
    return _dumps(obj, *a, **k)
_real.dumps = _lie
'''


def test_a_json_module_of_the_commit_does_not_answer_where_the_tree_imports_from(h, repo, tmp_path):
    """F-0016: the resolve probe runs in the commit's worktree; a json.py there must not answer it. The
    package is linked into site-packages from the checkout (`flit install --symlink`): only what the probe
    says makes the re-run stub it out for a commit that lacks it."""
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / "src" / "other").mkdir(parents=True)
    (repo / "src" / "other" / "__init__.py").write_text("")
    (repo / "src" / "calcpkg").mkdir()
    os.symlink(repo / "src" / "calcpkg", site / "calcpkg")
    base = commit_all_ok(repo, "config; the package is not committed")
    (repo / "json.py").write_text(JSON_SHIM)
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: calcpkg is not in the commit
    (repo / "json.py").unlink()
    answer(repo, 42)
    commit_all_ok(repo, "the package, added later")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    assert run["result"] != "reproduces", run
    assert code != 0


def test_a_json_module_at_the_checkouts_root_does_not_hide_its_editable_install(h, repo, tmp_path):
    """F-0018: the interpreter probe runs apart from the checkout; HEAD's json.py must not answer it."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 41)
    base = commit_all_ok(repo, "config; calcpkg answers 41")
    forged = done(h, repo, "Forged", forge=True)  # its check fails: 41
    answer(repo, 42)
    (repo / "json.py").write_text(JSON_SHIM)
    commit_all_ok(repo, "calcpkg answers 42, and a json.py at the root")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, forged)["unit_test"]
    assert run["result"] != "reproduces", run
    assert code != 0


def test_an_honest_commit_with_its_own_json_module_still_reruns(h, repo, tmp_path):
    """F-0016/F-0018, the honest side: a project whose root holds a json.py of its own re-runs true."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 42)
    (repo / "json.py").write_text("raise ImportError('the project json.py is not the standard library')\n")
    base = commit_all_ok(repo, "config; calcpkg; a json.py of the project's")
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0


NAMESPACE_CHECK = "import acme.calc, sys; sys.exit(acme.calc.answer() != 42)"


def _namespace_other(repo) -> None:
    (repo / "src" / "acme" / "other").mkdir(parents=True)  # acme: a namespace package (no __init__.py)
    (repo / "src" / "acme" / "other" / "__init__.py").write_text("")


def _namespace_calc(repo) -> None:
    (repo / "src" / "acme" / "calc").mkdir(parents=True, exist_ok=True)
    (repo / "src" / "acme" / "calc" / "__init__.py").write_text("def answer():\n    return 42\n")


def test_a_namespace_packages_module_the_commit_lacks_is_not_imported_from_the_checkout(h, repo, tmp_path):
    """F-0013: a submodule of a PEP 420 namespace package only the checkout has is absent in the re-run."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", NAMESPACE_CHECK])
    _namespace_other(repo)
    base = commit_all_ok(repo, "config; acme.other only")
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: acme.calc is not in the commit
    _namespace_calc(repo)
    commit_all_ok(repo, "acme.calc, added later")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    assert run["result"] != "reproduces", run
    assert code != 0


def test_a_namespace_packages_module_the_commit_has_reruns_from_the_tree(h, repo, tmp_path):
    """F-0013, the honest side: a commit holding acme.calc in a namespace package re-runs true, and a
    later commit's change of it in the checkout does not reach the re-run."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", NAMESPACE_CHECK])
    _namespace_other(repo)
    base = commit_all_ok(repo, "config; acme.other only")
    _namespace_calc(repo)
    sha = done(h, repo, "Honest")
    (repo / "src" / "acme" / "calc" / "__init__.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "acme.calc broken later")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0


STDLIB_CHECK = "import calendar, calcpkg, sys; sys.exit(not hasattr(calendar, 'monthrange') or calcpkg.answer() != 42)"


def test_a_src_module_named_like_the_standard_library_does_not_shadow_it_in_the_rerun(h, repo, tmp_path):
    """F-0014: the tree's import folder keeps the place the editable install gave the checkout's, after
    the standard library: src/calendar.py does not replace the stdlib's calendar."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", STDLIB_CHECK])
    answer(repo, 42)
    (repo / "src" / "calendar.py").write_text("EVENTS = []\n")
    base = commit_all_ok(repo, "config; calcpkg and a calendar module")
    sha = done(h, repo, "Honest")
    answer(repo, 41)
    commit_all_ok(repo, "calcpkg broken later")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0


GENERATE = "open('src/genmod.py', 'w').write('VALUE = 42\\n')"  # the build: a code generator, in place
GENERATED_CHECK = "import calcpkg, genmod, sys; sys.exit(calcpkg.answer() != 42 or genmod.VALUE != 42)"


def test_a_module_the_build_generates_in_the_tree_is_not_stubbed_out(h, repo, tmp_path):
    """F-0015: a module the checkout has (ignored) and the commit's build makes in the tree is imported
    from the tree by the later commands, not made absent."""
    python = editable(tmp_path, repo)
    configure(repo, [str(python), "-c", GENERATE], [str(python), "-c", GENERATED_CHECK])
    answer(repo, 42)
    with open(repo / ".gitignore", "a") as f:
        f.write("src/genmod.py\n")
    base = commit_all_ok(repo, "config, package, the generated module ignored")
    sha = done(h, repo, "Honest")
    assert (repo / "src" / "genmod.py").is_file()

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0


def test_a_generated_module_the_commits_build_does_not_make_is_not_imported_from_the_checkout(h, repo, tmp_path):
    """F-0015, the guard kept: a module only the checkout's build output has (ignored there) and the
    commit's build does not make stays absent in the re-run."""
    python = editable(tmp_path, repo)
    configure(repo, [str(python), "-c", "pass"], [str(python), "-c", GENERATED_CHECK])
    answer(repo, 42)
    with open(repo / ".gitignore", "a") as f:
        f.write("src/genmod.py\n")
    base = commit_all_ok(repo, "config, package, the generated module ignored")
    lacking = done(h, repo, "Lacking", forge=True)  # no genmod: its check fails
    (repo / "src" / "genmod.py").write_text("VALUE = 42\n")  # left by another commit's build

    code, doc, _ = rerun(h, base)
    assert reruns(doc, lacking)["unit_test"]["result"] != "reproduces", reruns(doc, lacking)
    assert code != 0


def test_a_crlf_blob_committed_before_text_auto_is_the_commits_tree(h, repo, tmp_path):
    """F-0012: a blob holding CRLF, checked out byte for byte under a later `* text=auto`, is the commit's."""
    python, _ = venv(tmp_path / "ci-venv")
    (repo / "run.bat").write_bytes(b"@echo off\r\necho hi\r\n")
    commit_all_ok(repo, "a Windows script")
    (repo / ".gitattributes").write_text("* text=auto\n")
    configure(repo, PASS_CMD, [str(python), "-c", "pass"])
    base = commit_all_ok(repo, "config; .gitattributes")
    assert git(repo, "status", "--porcelain").stdout.strip() == ""
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == "reproduces", run
    assert code == 0


def test_tracked_files_named_with_a_trailing_cr_or_a_leading_quote_are_the_commits_tree(h, repo, tmp_path):
    """F-0017: paths `git hash-object --stdin-paths` cannot read (a trailing CR, a leading quote) are checked."""
    python, _ = venv(tmp_path / "ci-venv")
    (repo / "assets").mkdir()
    (repo / "assets" / "Icon\r").write_bytes(b"")  # macOS's custom folder icon file
    (repo / "assets" / '"quoted".txt').write_text("q\n")
    configure(repo, PASS_CMD, [str(python), "-c", "pass"])
    base = commit_all_ok(repo, "config; a folder with its Icon\\r")
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == "reproduces", run
    assert code == 0


def test_a_namespace_submodule_linked_in_from_the_checkout_is_absent_for_a_commit_lacking_it(h, repo, tmp_path):
    """F-0013, a namespace package linked into site-packages (`flit install --symlink`): the checkout's
    folder is not on sys.path to be replaced, so the submodule the commit lacks gets a stub below `acme/`."""
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", NAMESPACE_CHECK])
    _namespace_other(repo)
    os.symlink(repo / "src" / "acme", site / "acme")
    base = commit_all_ok(repo, "config; acme.other only")
    lacking = done(h, repo, "Lacking", forge=True)
    _namespace_calc(repo)
    sha = done(h, repo, "Honest")  # acme.calc, committed: its re-run imports the tree's

    code, doc, _ = rerun(h, base)
    assert reruns(doc, lacking)["unit_test"]["result"] != "reproduces", reruns(doc, lacking)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code != 0


# A PEP 660-style finder a .pth installs: top-level names mapped to the checkout's files, asked after sys.path.
FINDER = '''import importlib.util, sys
MAPPING = {mapping!r}
class _Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        where = MAPPING.get(name)
        if where is None:
            return None
        if where.endswith(".py"):
            return importlib.util.spec_from_file_location(name, where)
        return importlib.util.spec_from_file_location(name, where + "/__init__.py", submodule_search_locations=[where])
def install():
    sys.meta_path.append(_Finder)
'''


def test_a_module_the_build_generates_is_released_from_its_stub_under_a_finder_install(h, repo, tmp_path):
    """F-0015, a finder-module editable install: the generated module is stubbed before the build (the
    finder maps it to the checkout's), and the stub is removed once the build made it in the tree."""
    python, site = venv(tmp_path / "ci-venv")
    src = repo / "src"
    (site / "__editable___calcpkg_finder.py").write_text(FINDER.format(mapping={
        "calcpkg": str(src / "calcpkg"), "genmod": str(src / "genmod.py")}))
    (site / "__editable__.calcpkg-0.1.pth").write_text("import __editable___calcpkg_finder; "
                                                      "__editable___calcpkg_finder.install()\n")
    configure(repo, [str(python), "-c", GENERATE], [str(python), "-c", GENERATED_CHECK])
    answer(repo, 42)
    with open(repo / ".gitignore", "a") as f:
        f.write("src/genmod.py\n")
    base = commit_all_ok(repo, "config, package, the generated module ignored")
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == "reproduces" and run["imports_from"][-1] == run["cwd"] + "/src", run
    assert code == 0


@needs_a_site_sitecustomize
def test_the_environments_own_sitecustomize_still_runs_in_the_rerun(h, repo, tmp_path):
    """F-0014, the honest side: the harness's sitecustomize that puts the tree in the checkout's place
    chains to the interpreter's own sitecustomize, which still runs (once) as it did on the laptop."""
    python = editable(tmp_path, repo)
    site = next((tmp_path / "ci-venv" / "lib").glob("python*/site-packages"))
    (site / "sitecustomize.py").write_text("import builtins\nbuiltins.CI_CUSTOMIZED = getattr(builtins, 'CI_CUSTOMIZED', 0) + 1\n")
    check = ("import builtins, sys, calcpkg, sitecustomize\n"
             "sys.exit(getattr(builtins, 'CI_CUSTOMIZED', 0) != 1 or calcpkg.answer() != 42\n"
             "         or not sitecustomize.__file__.startswith(sys.prefix))\n")
    configure(repo, PASS_CMD, [str(python), "-c", check])
    answer(repo, 42)
    base = commit_all_ok(repo, "config; calcpkg")
    sha = done(h, repo, "Honest")
    answer(repo, 41)
    commit_all_ok(repo, "calcpkg broken later")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == "reproduces" and run["imports_from"] == [run["cwd"] + "/src"], run
    assert code == 0


# A sitecustomize the checkout's src/ holds, which `site` imports through the editable `.pth` before any probe runs:
# the interpreter probe hears of no site folder, the resolve probe of no name found in the checkout (read 89's F-0306).
PROBE_FORGER = '''import atexit, json, sys
if sys.argv[:1] == ["-c"] and len(sys.argv) == 1:
    atexit.register(lambda: print(json.dumps({"executable": sys.executable, "prefix": sys.prefix,
                                              "base_prefix": sys.base_prefix, "site": [], "user": None,
                                              "path": [p for p in sys.path if "site-packages" not in p]})))
elif sys.argv[:1] == ["-c"]:
    atexit.register(lambda: print("{}"))
'''


def test_a_sitecustomize_of_the_checkout_does_not_answer_the_reruns_probes(h, repo, tmp_path):
    """F-0306: the probes run no code of the checkout: its src/sitecustomize.py, which prints a forged answer last,
    is not imported in them, the editable install is seen, and a commit lacking the module it checks is not
    re-run on HEAD's."""
    python = editable(tmp_path, repo)
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 41)
    base = commit_all_ok(repo, "config; calcpkg answers 41")
    forged = done(h, repo, "Forged", forge=True)  # its check fails: 41
    answer(repo, 42)
    (repo / "src" / "sitecustomize.py").write_text(PROBE_FORGER)
    commit_all_ok(repo, "calcpkg answers 42, and a sitecustomize that answers the probes")

    code, doc, _ = rerun(h, base)
    run = reruns(doc, forged)["unit_test"]
    assert run["result"] != "reproduces", run
    assert code != 0


@needs_a_site_sitecustomize
def test_an_honest_commit_with_its_own_sitecustomize_still_reruns(h, repo, tmp_path):
    """F-0306, the honest side: a project whose src/ holds a sitecustomize of its own re-runs true (the probes do not
    run it; the re-run does)."""
    python = editable(tmp_path, repo)
    check = "import builtins, calcpkg, sys; sys.exit(calcpkg.answer() != 42 or builtins.CALC_SITE != 1)"
    configure(repo, PASS_CMD, [str(python), "-c", check])
    answer(repo, 42)
    (repo / "src" / "sitecustomize.py").write_text("import builtins\nbuiltins.CALC_SITE = 1\n")
    base = commit_all_ok(repo, "config; calcpkg; a sitecustomize of the project's")
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0


# -- self-found, CI's twin of F-0308: the re-run's names at any depth -------------------------------------------------
# The re-run listed what the checkout holds and the commit lacks three levels down a namespace package (and 200 names)
# at most: a module a later commit adds five levels down was neither made absent nor asked about, and the re-run of an
# earlier commit imported it from the checkout. The listing is now the worktree runs' (harness/evidence/tree_names.py).

DEEP = "src/nsa/b/c/d"
DEEP_CHECK = "import nsa.b.c.d.sub, sys; sys.exit(nsa.b.c.d.sub.answer() != 42)"


def _deep_namespace(repo, site) -> None:
    """nsa.b.c.d.mul: `nsa` a namespace package (no __init__.py at any level), linked into CI's site-packages from
    the checkout (`flit install --symlink`): the checkout's folder is not on sys.path to be replaced."""
    (repo / DEEP).mkdir(parents=True)
    (repo / DEEP / "mul.py").write_text("def mul(a, b):\n    return a * b\n")
    os.symlink(repo / "src" / "nsa", site / "nsa")


def test_a_module_the_commit_lacks_five_levels_down_a_namespace_package_is_absent_in_the_rerun(h, repo, tmp_path):
    """A forged DONE whose check imports nsa.b.c.d.sub, which only a later commit adds: its re-run does not find it
    (a stub raises ModuleNotFoundError, as on a fresh runner at the commit: could not run, exit 1), and is not
    reproduced on the later commit's module."""
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", DEEP_CHECK])
    _deep_namespace(repo, site)
    base = commit_all_ok(repo, "config; nsa.b.c.d.mul only")
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: nsa.b.c.d.sub is not in the commit
    (repo / DEEP / "sub.py").write_text("def answer():\n    return 42\n")
    commit_all_ok(repo, "nsa.b.c.d.sub, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    assert run["result"] == UNRUNNABLE and run["exit_code"] == 1, run  # "No module named": missing, not judged
    assert run["imports_from"][0].endswith(".absent"), run  # the stubs' folder: a stub was written
    assert code == 2, err


def test_the_250th_module_a_later_commit_adds_to_a_namespace_package_is_absent_in_the_rerun(h, repo, tmp_path):
    """Past 200 names (where the listing stopped): a later commit adds nsa.m000 .. nsa.m249; the re-run of a forged
    DONE whose check imports nsa.m249 does not find it."""
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", "import nsa.m249"])
    _deep_namespace(repo, site)
    base = commit_all_ok(repo, "config; nsa.b.c.d.mul only")
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: nsa.m249 is not in the commit
    for i in range(250):
        (repo / "src" / "nsa" / f"m{i:03d}.py").write_text("")
    commit_all_ok(repo, "nsa.m000 .. nsa.m249, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    assert run["result"] == UNRUNNABLE and run["exit_code"] == 1, run  # "No module named": missing, not judged
    assert run["imports_from"][0].endswith(".absent"), run  # the stubs' folder: a stub was written
    assert code == 2, err

def test_a_module_five_levels_down_a_namespace_package_the_commit_holds_reruns_from_the_tree(h, repo, tmp_path):
    """The honest neighbour: a commit holding nsa.b.c.d.sub re-runs true on its own copy; a later commit's break of it
    in the checkout does not reach the re-run, and nothing the commit holds is hidden."""
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", DEEP_CHECK])
    _deep_namespace(repo, site)
    base = commit_all_ok(repo, "config; nsa.b.c.d.mul only")
    (repo / DEEP / "sub.py").write_text("def answer():\n    return 42\n")
    sha = done(h, repo, "Honest")
    (repo / DEEP / "sub.py").write_text("def answer():\n    return 41\n")
    (repo / DEEP / "div.py").write_text("def div(a, b):\n    return a / b\n")
    commit_all_ok(repo, "nsa.b.c.d.sub broken later, and nsa.b.c.d.div added")

    code, doc, err = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0, err


def test_a_namespace_package_deeper_than_the_listing_reaches_could_not_run(h, repo, tmp_path):
    """Past the listing's limit (32 levels) the re-run is refused with the remedy, never listed in part."""
    from harness.evidence import tree_names

    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", "import nsa"])
    deep = repo / "src" / "nsa" / os.path.join(*["n"] * (tree_names.DEPTH + 2))
    deep.mkdir(parents=True)
    (deep / "leaf.py").write_text("")
    os.symlink(repo / "src" / "nsa", site / "nsa")
    base = commit_all_ok(repo, "config; a namespace package 34 levels deep")
    sha = done(h, repo, "Deep")

    code, doc, err = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    assert run["result"] == UNRUNNABLE and "outcome" not in run, run
    assert f"more than {tree_names.DEPTH} levels deep" in run["error"], run["error"]
    assert REMEDY_LEAK in run["error"], run["error"]
    assert code == 2, err


# read 97's F-0332: a package an editable finder maps to a folder of another name (setuptools' `package-dir =
# {"calcpkg" = "src"}`): no folder of the tree is named calcpkg, and the re-run asked only the names its folders hold.

def _renamed(repo, value: int) -> None:
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "__init__.py").write_text(f"def answer():\n    return {value}\n")


def test_a_package_a_finder_maps_to_a_folder_of_another_name_is_the_commits(h, repo, tmp_path):
    """The commit's own src/ is imported as calcpkg, never the checkout's: a forged commit does not reproduce on
    later code, and the honest one reproduces."""
    python, site = venv(tmp_path / "ci-venv")
    finder(site, {"calcpkg": str(repo / "src")})
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    _renamed(repo, 41)
    base = commit_all_ok(repo, "config; calcpkg (src/) answers 41")
    forged = done(h, repo, "Forged", forge=True)  # its check fails: 41
    _renamed(repo, 42)
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, forged)["unit_test"]["result"] != "reproduces", reruns(doc, forged)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code != 0


def test_a_name_a_finder_maps_outside_the_checkout_is_not_the_commits_concern(h, repo, tmp_path):
    """The neighbour: another project installed editable from elsewhere (a finder mapping its name to a folder
    outside the checkout) is the environment; the honest commit re-runs true."""
    python, site = venv(tmp_path / "ci-venv")
    other = tmp_path / "elsewhere" / "lib"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("VALUE = 42\n")
    finder(site, {"otherlib": str(other)})
    (site / "calcpkg.pth").write_text(f"{repo / 'src'}\n")
    configure(repo, PASS_CMD, [str(python), "-c", "import calcpkg, otherlib, sys; "
                                                    "sys.exit(calcpkg.answer() != otherlib.VALUE)"])
    answer(repo, 42)
    base = commit_all_ok(repo, "config; calcpkg")
    sha = done(h, repo, "Honest")

    code, doc, _ = rerun(h, base)
    assert reruns(doc, sha)["unit_test"]["result"] == "reproduces", reruns(doc, sha)
    assert code == 0
