"""What a PASS_TO_PASS or FAIL_TO_PASS worktree run imports is decided by a probe no code of the tree runs in, over
the folders the interpreter itself imports from (read 89's F-0306, F-0307, F-0308).

- F-0306: the probe started the test interpreter normally, so the editable install's `.pth` let `site` import the
  change's src/sitecustomize.py before the probe ran; it printed `{}` last, every name looked absent from the
  checkout, nothing was hidden, and the real runs imported that sitecustomize (every failure turned into a pass).
- F-0307: only src/, the root configuration's `pythonpath` folders and the root were known: a package folder
  installed editable from elsewhere (`package-dir = {"" = "lib"}`) was never put first nor probed, and the base was
  measured on the change's code.
- F-0308: of a flat layout's root only regular packages and modules were probed: a module the change adds to a root
  namespace package was imported from the checkout in FAIL_TO_PASS, and an honest change was blocked. (A namespace
  package's modules were also listed three levels down at most.)
- Read 97's F-0330: the change's compiled `sitecustomize.<tag>.so` (loaded with dlopen, which the probe's audit hook
  did not see) ran inside the probe and answered "not found"; F-0331: a `sitecustomize` package (or `.pyc`,
  extension) was no protected start-up file, copied into PASS_TO_PASS's worktree and run at every start-up; F-0332: a
  package an editable finder maps to a folder of another name (`package-dir = {"calcpkg" = "src"}`) was never asked
  about, and the base ran the change's code.

Beside each guard, the honest neighbour a careless guard would refuse.
"""

from __future__ import annotations

import pytest

from support.editable_project import (
    ALL_PASS,
    BROKEN,
    CALC,
    WEAKENED,
    distribution,
    editable,
    finder,
    interpreter,
    moved,
    project,
)
from support.extension import extension, needs_compiler
from support.gitrepo import commit_all_ok
from support.protected_project import f2p_blockers, write
from support.records import record


def started(h, repo) -> str:
    commit_all_ok(repo, "calcpkg with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


def lost(h, repo, tid) -> list[str]:
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    outcome = record(repo, tid, "pass_to_pass")["pass_to_pass"]
    assert outcome["base_passed"] >= 2, outcome
    return [item["case"] for item in outcome["lost"]]


def required(h) -> None:
    """A `must` requirement names the change's test (tests/test_sub.py::test_sub), proved by unit_test."""
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_sub.py::test_sub")


def f2p_log(repo, tid) -> str:
    return (repo / ".harness/tasks" / tid / "evidence/fail_to_pass.log").read_text()


NEW_MODULE = "def sub(a, b):\n    return a - b\n"
NEW_TEST = "from calcpkg.sub import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"


# -- F-0306: no code of the checkout answers the probe ---------------------------------------------------------------

# The change's sitecustomize: every probe (`python -c`) reads "nothing from the checkout" as its last line; every other
# run loads it as a pytest plugin that turns each failure into a pass.
FORGER = ('import atexit, os, sys\n'
          'if sys.argv[:1] == ["-c"]:\n'
          '    atexit.register(lambda: print("{}"))\n'
          'else:\n'
          '    os.environ.setdefault("PYTEST_PLUGINS", "sitecustomize")\n'
          + ALL_PASS.split('"""The project\'s pytest plugin."""\n', 1)[1])


@pytest.fixture
def installed(repo, tmp_path):
    """The project's interpreter with the project installed editable (a .pth naming the checkout's src/)."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python)
    return python


def test_f0306_the_changes_sitecustomize_does_not_answer_the_probe_nor_run_in_the_base(h, repo, installed):
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "src/sitecustomize.py": FORGER})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


def test_f0306_a_file_of_the_checkout_an_environments_pth_runs_at_start_up_refuses_the_run(h, repo, tmp_path):
    """A `.pth` of the environment that runs a file of the checkout at start-up would run the change's code in every
    worktree run, and in the probe: the probe does not run it, and the run is refused with the remedy."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    (site / "zz_boot.pth").write_text(f"import runpy; runpy.run_path({str(repo / 'tools' / 'boot.py')!r})\n")
    project(repo, python, {"tools/boot.py": "import atexit\natexit.register(lambda: print('{}'))\n"})
    started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN})
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "boot.py" in r.err and "non-editable" in r.err, r.text


def test_f0306_the_bases_own_sitecustomize_still_runs_in_the_worktree(h, repo, tmp_path):
    """The honest neighbour: a sitecustomize the base holds is the worktree's, never hidden; it runs as it does in the
    checkout (here it provides the fixture value the tests need)."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"src/sitecustomize.py": "import builtins\nbuiltins.CALC_TWO = 2\n",
                           "tests/test_custom.py": "import builtins\n\n\ndef test_custom():\n"
                                                   "    assert builtins.CALC_TWO == 2\n"})
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n"})
    assert lost(h, repo, tid) == []


def test_f0306_an_interpreter_inside_the_checkout_is_the_environment_not_the_changes_code(h, repo, tmp_path):
    """The honest neighbour: a virtualenv in the checkout's ignored `.venv/` (its site-packages, the editable `.pth`
    in it) is the environment, read by the probe as at any start-up; the base is measured on its own code."""
    python, site = interpreter(repo / ".venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {".gitignore": "__pycache__/\n.harness/local/\n.venv/\n"})
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


# -- F-0307: the folders the interpreter imports the checkout from, whatever they are named --------------------------

@pytest.fixture
def in_lib(repo, tmp_path):
    """The package in lib/ (setuptools' `package-dir = {"" = "lib"}`), installed editable: a .pth naming lib/."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'lib'}\n")
    project(repo, python, moved("lib/calcpkg"))
    return python


def test_f0307_a_lib_folder_installed_editable_is_measured_from_the_worktree(h, repo, in_lib):
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


def test_f0307_a_module_the_change_adds_to_a_lib_folder_is_hidden_in_fail_to_pass(h, repo, in_lib, monkeypatch):
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    tid = started(h, repo)
    write(repo, {"lib/subtool.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "subtool")})
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == []
    assert "No module named 'subtool': the tree under test holds none" in f2p_log(repo, tid)


def test_f0307_an_honest_change_in_a_lib_folder_passes(h, repo, in_lib):
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n"})
    assert lost(h, repo, tid) == []


# -- F-0308: a flat layout's root namespace package, and namespace packages at any depth -----------------------------

def test_f0308_a_module_the_change_adds_to_a_root_namespace_package_is_hidden_in_fail_to_pass(h, repo, tmp_path,
                                                                                              monkeypatch):
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo}\n")  # a flat layout's editable install: the .pth names the checkout's root
    project(repo, python, {**moved("calcpkg"), "calcpkg/__init__.py": None})
    tid = started(h, repo)
    write(repo, {"calcpkg/sub.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST})
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == [], f2p_blockers(h)
    assert "No module named 'calcpkg.sub': the tree under test holds none" in f2p_log(repo, tid)


def test_f0308_a_module_the_change_adds_deep_in_a_namespace_package_is_hidden_in_fail_to_pass(h, repo, tmp_path,
                                                                                              monkeypatch):
    """Five levels down (the listing stopped at three): still hidden."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"src/nsa/b/c/d/mul.py": "def mul(a, b):\n    return a * b\n"})
    tid = started(h, repo)
    write(repo, {"src/nsa/b/c/d/sub.py": NEW_MODULE,
                 "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "nsa.b.c.d.sub")})
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == [], f2p_blockers(h)
    assert "No module named 'nsa.b.c.d.sub': the tree under test holds none" in f2p_log(repo, tid)


def test_f0308_a_root_namespace_package_the_base_holds_is_measured_from_the_worktree(h, repo, tmp_path):
    """The honest neighbour: the base's root namespace package, changed in place, is the worktree's (never hidden)."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo}\n")
    project(repo, python, {**moved("calcpkg"), "calcpkg/__init__.py": None})
    tid = started(h, repo)
    write(repo, {"calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


# -- read 97's F-0330: an extension module of the checkout runs in no probe ------------------------------------------

# The change's compiled sitecustomize (src/sitecustomize.<tag>.so, loaded with dlopen: no file is opened): inside the
# probe (`python -S`) it makes every question about the start-up modules answer "not found", so nothing is hidden; in
# every other run it loads a plugin that fails the base's test_mul wherever mul() still multiplies (the base's run).
FAILS_THE_BASE = ('import os\n'
                  'def pytest_runtest_setup(item):\n'
                  '    calc = os.path.join(str(item.config.rootpath), "src", "calcpkg", "calc.py")\n'
                  '    if item.name == "test_mul" and "return a * b" in open(calc).read():\n'
                  '        raise AssertionError("the base made to fail by the change\'s sitecustomize")\n')
FORGING_EXTENSION = ('import os, sys\n'
                     'if sys.flags.no_site:\n'
                     '    import importlib.util as _u\n'
                     '    _find = _u.find_spec\n'
                     '    _u.find_spec = lambda name, package=None: (None if name in ("sitecustomize", "usercustomize")\n'
                     '                                               else _find(name, package))\n'
                     'else:\n'
                     '    import types\n'
                     '    _m = types.ModuleType("zzforge")\n'
                     f'    exec({FAILS_THE_BASE!r}, _m.__dict__)\n'
                     '    sys.modules["zzforge"] = _m\n'
                     '    os.environ["PYTEST_PLUGINS"] = "zzforge"\n')


@needs_compiler
def test_f0330_the_changes_extension_sitecustomize_does_not_answer_the_probe_nor_run_in_the_base(h, repo, installed):
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    extension(repo / "src", "sitecustomize", FORGING_EXTENSION)
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


# -- read 97's F-0331: a start-up module in any form is a protected start-up file -------------------------------------

# The change's sitecustomize as a package: every run imports it at start-up, and it turns each failure into a pass.
SITE_PLUGIN = ('import os\nos.environ.setdefault("PYTEST_PLUGINS", "sitecustomize")\n'
               + ALL_PASS.split('"""The project\'s pytest plugin."""\n', 1)[1])


def test_f0331_a_sitecustomize_package_the_change_adds_does_not_run_in_pass_to_pass(h, repo, installed):
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED,
                 "src/sitecustomize/__init__.py": SITE_PLUGIN})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


def test_f0331_a_change_to_an_unrelated_module_is_measured_as_it_is(h, repo, installed):
    """The honest neighbour: a module whose name only resembles a start-up one (src/calcpkg/customize.py,
    src/sitecustomize_tools.py) is the change's code, run in PASS_TO_PASS as it is."""
    project(repo, installed, {"tests/test_custom.py": "from calcpkg.customize import square\n\n\n"
                                                      "def test_square():\n    assert square(3) == 9\n",
                              "src/calcpkg/customize.py": "def square(a):\n    return a * a\n"})
    tid = started(h, repo)
    write(repo, {"src/calcpkg/customize.py": "from sitecustomize_tools import times\n\n\n"
                                             "def square(a):\n    return times(a, a)\n",
                 "src/sitecustomize_tools.py": "def times(a, b):\n    return a * b\n"})
    r = h("evidence", "pass_to_pass")
    assert r.code == 0, r.text
    assert record(repo, tid, "pass_to_pass")["pass_to_pass"]["lost"] == []


# -- read 97's F-0332: a package an editable finder maps to a folder of another name ----------------------------------

@pytest.fixture
def renamed(repo, tmp_path):
    """calcpkg's modules directly in src/ (setuptools' `package-dir = {"calcpkg" = "src"}`), installed editable: the
    finder setuptools writes maps `calcpkg` to the checkout's src/, and no folder of the tree is named calcpkg."""
    python, site = interpreter(tmp_path / "venv")
    distribution(site)
    finder(site, {"calcpkg": str(repo / "src")})
    project(repo, python, moved("src"))
    return python


def test_f0332_a_package_a_finder_maps_to_a_folder_of_another_name_is_measured_from_the_worktree(h, repo, renamed):
    tid = started(h, repo)
    write(repo, {"src/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


def test_f0332_an_honest_change_to_a_package_a_finder_maps_to_another_name_passes(h, repo, renamed):
    tid = started(h, repo)
    write(repo, {"src/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n"})
    assert lost(h, repo, tid) == []


def test_f0332_a_package_a_finder_maps_under_its_own_name_is_measured_from_the_worktree(h, repo, tmp_path):
    """The neighbour the folders already covered (`package-dir = {"calcpkg" = "src/calcpkg"}`): still measured."""
    python, site = interpreter(tmp_path / "venv")
    distribution(site)
    finder(site, {"calcpkg": str(repo / "src" / "calcpkg")})
    project(repo, python)
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    assert lost(h, repo, tid) == ["tests.test_calc::test_mul"]


def test_f0332_a_package_a_finder_maps_to_a_folder_the_base_lacks_is_hidden_in_fail_to_pass(h, repo, tmp_path,
                                                                                           monkeypatch):
    """The change adds the package (its folder, `pkgsrc/`, mapped as `calcpkg`): the base has no folder to import it
    from, so it is hidden there as on a machine holding only the base, and the change's test fails on the base."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    python, site = interpreter(tmp_path / "venv")
    finder(site, {"calcpkg": str(repo / "pkgsrc")})
    project(repo, python, {**{rel: None for rel in moved("src")},
                           "tests/test_calc.py": "def test_nothing_yet():\n    pass\n"})
    tid = started(h, repo)
    write(repo, {"pkgsrc/__init__.py": "", "pkgsrc/sub.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST})
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == [], f2p_blockers(h)
    assert "No module named 'calcpkg'" in f2p_log(repo, tid)
