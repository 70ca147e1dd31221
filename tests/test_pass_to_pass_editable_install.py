"""The PASS_TO_PASS and FAIL_TO_PASS worktree runs import the project's own code from the worktree, never from the
checkout an editable install points at (read 85's F-0300, F-0301).

An editable install of a src/ layout puts the checkout's src/ on the import path: a run in a worktree of the base
imported the change's code (the base measured on the change, F-0301), and pytest loaded the project's `pytest11`
plugin from the checkout, not the base's copy put back in the worktree (F-0300). The worktree's src/ now comes first;
an interpreter that would still import one of the tree's names from the checkout is refused, not measured. A flat
layout, a non-editable install and an editable install of another project are not refused.
"""

from __future__ import annotations

import pytest

from support.editable_project import (
    ALL_PASS,
    BROKEN,
    CALC,
    PLUGIN,
    PYPROJECT,
    WEAKENED,
    copied,
    editable,
    interpreter,
    moved,
    project,
)
from support.gitrepo import commit_all_ok
from support.protected_project import f2p_blockers, write
from support.records import record, tdir


def started(h, repo) -> str:
    commit_all_ok(repo, "calcpkg with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


def pass_to_pass(h, repo, tid) -> dict:
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    return record(repo, tid, "pass_to_pass")["pass_to_pass"]


def lost(outcome: dict) -> list[str]:
    return [item["case"] for item in outcome["lost"]]


@pytest.fixture
def installed_in(repo, tmp_path):
    """(the project's interpreter, its site-packages) with the project installed editable (a .pth naming the
    checkout's src/)."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python)
    return python, site


@pytest.fixture
def installed(installed_in):
    return installed_in[0]


def only_the_plugin_weakened(h, repo, tid) -> None:
    """The base measured on the clean tree, then the plugin rewritten to pass every failure and mul() broken:
    PASS_TO_PASS puts the base's plugin back and loses test_mul."""
    h.ok("evidence", "pass_to_pass")
    write(repo, {"src/calcpkg/calc.py": BROKEN, "src/calcpkg/plugin.py": ALL_PASS})
    outcome = pass_to_pass(h, repo, tid)
    assert "src/calcpkg/plugin.py" in outcome["protected_changed"]
    assert lost(outcome) == ["tests.test_calc::test_mul"], outcome


# -- F-0301: the base is measured on the base's code ----------------------------------------------------------

def test_f0301_the_base_is_measured_on_its_own_code_not_the_checkouts_editable_src(h, repo, installed):
    tid = started(h, repo)
    # the base has not been measured yet: its run happens with the change in the checkout
    write(repo, {"src/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == ["tests.test_calc::test_mul"], outcome


def test_f0301_an_honest_change_passes_under_an_editable_src_install(h, repo, installed):
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n"})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == [], outcome


# -- F-0300: the protected pytest11 plugin is the worktree's ----------------------------------------------------

def test_f0300_the_projects_pytest11_plugin_is_loaded_from_the_worktree_not_the_checkout(h, repo, installed):
    only_the_plugin_weakened(h, repo, started(h, repo))


def test_f0300_a_non_editable_install_runs_the_worktrees_plugin_and_code(h, repo, tmp_path):
    python, site = interpreter(tmp_path / "venv")
    project(repo, python)
    copied(site, repo)  # the package copied into site-packages, with its pytest11 entry point
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN, "src/calcpkg/plugin.py": ALL_PASS})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == ["tests.test_calc::test_mul"], outcome


# -- read 133: the entry points pytest loads are those the tree declares -----------------------------------------

def reinstalled(site, pyproject: str, points: str) -> dict[str, str]:
    """The change's pyproject.toml (``pyproject``), and the metadata an install of it writes: its entry points."""
    (site / "calcpkg-0.1.dist-info" / "entry_points.txt").write_text(points)
    return {"pyproject.toml": pyproject}


REPORT_HOOK = "\n\nimport pytest\n" + ALL_PASS.split('return 2\n', 1)[1]  # the hook that reads a failure as a pass


def test_f0472_an_entry_point_the_change_adds_is_not_loaded_in_the_base_s_tests(h, repo, installed_in):
    # Read 133's F-0472: the change declared and installed `report = calcpkg.calc`, the code under test doubling as a
    # plugin that reads every failure as a pass; pytest loaded it from the environment's metadata in PASS_TO_PASS.
    site = installed_in[1]
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN + REPORT_HOOK, **reinstalled(
        site, PYPROJECT + 'report = "calcpkg.calc"\n', "[pytest11]\ncalc = calcpkg.plugin\nreport = calcpkg.calc\n")})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == ["tests.test_calc::test_mul"], outcome


def test_f0472_an_honest_plugin_the_change_adds_leaves_the_base_s_tests_passing(h, repo, installed_in, monkeypatch):
    site = installed_in[1]
    tid = started(h, repo)
    extra = "import pytest\n\n\n@pytest.fixture\ndef three():\n    return 3\n"
    write(repo, {"src/calcpkg/extra.py": extra, "tests/test_three.py": "def test_three(three):\n    assert three == 3\n",
                 **reinstalled(site, PYPROJECT + 'extra = "calcpkg.extra"\n',
                               "[pytest11]\ncalc = calcpkg.plugin\nextra = calcpkg.extra\n")})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == [], outcome
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)  # as a user runs pytest
    assert h("evidence", "unit_test").code == 0  # the change's own run loads it


def test_f0484_an_entry_point_naming_another_attribute_of_a_declared_module_is_kept_out(h, repo, tmp_path):
    # Read 136's F-0484: `report = calcpkg.plugin:calc` names the declared module, but pytest registers what the
    # attribute names: the code under test, whose hook read every failure as a pass. Judged by the whole value now.
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"src/calcpkg/plugin.py": PLUGIN + "\nfrom calcpkg import calc  # noqa: E402,F401\n"})
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN + REPORT_HOOK, **reinstalled(
        site, PYPROJECT, "[pytest11]\ncalc = calcpkg.plugin\nreport = calcpkg.plugin:calc\n")})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == ["tests.test_calc::test_mul"], outcome


def test_f0488_an_entry_point_with_an_empty_name_from_the_tree_stops_the_run(h, repo, installed_in):
    # Read 138's F-0488: `-p no:NAME` cannot name it, and pytest loaded it (the code under test) into the base's run.
    site = installed_in[1]
    tid = started(h, repo)
    write(repo, {"src/calcpkg/calc.py": BROKEN + REPORT_HOOK,
                 **reinstalled(site, PYPROJECT, "[pytest11]\ncalc = calcpkg.plugin\n = calcpkg.calc\n")})
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "an empty name" in r.err and "calcpkg.calc" in r.err, r.text
    assert not (tdir(repo, tid) / "evidence/pass_to_pass.json").exists()


SETUP_PY = 'from setuptools import setup\n\nsetup(entry_points={"pytest11": ["calc = calcpkg.plugin"]})\n'


def test_f0473_a_plugin_the_base_s_setup_py_declares_is_protected(h, repo, tmp_path):
    # Read 133's F-0473: only pyproject.toml and setup.cfg were read for the base's pytest11 plugins.
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"pyproject.toml": PYPROJECT.split("\n\n")[0] + "\n", "setup.py": SETUP_PY})
    only_the_plugin_weakened(h, repo, started(h, repo))


# -- what still imports the checkout is refused; what does not, is not ------------------------------------------

# Ways an interpreter finds the project in the checkout ahead of the worktree's src/ on PYTHONPATH (each .pth's text).
AHEAD = {
    # a .pth line run at startup that puts the checkout first, ahead of PYTHONPATH
    "pth-inserts-first": "import sys; sys.path.insert(0, {src!r})\n",
    # an editable finder asked before the import path (setuptools' and hatch's append theirs; this one is first)
    "finder-first": ("import sys; sys.meta_path.insert(0, type('F', (), {{'find_spec': staticmethod("
                     "lambda n, p=None, t=None: __import__('importlib.util', fromlist=['_']).spec_from_file_location("
                     "n, {src!r} + '/calcpkg/__init__.py', submodule_search_locations=[{src!r} + '/calcpkg']) "
                     "if n == 'calcpkg' else None)}})())\n"),
}


@pytest.mark.parametrize("how", AHEAD)
def test_f0301_an_interpreter_that_imports_the_project_from_the_checkout_is_refused(h, repo, tmp_path, how):
    python, site = interpreter(tmp_path / "venv")
    editable(site, AHEAD[how].format(src=str(repo / "src")))
    project(repo, python)
    started(h, repo)
    r = h("evidence", "pass_to_pass")
    assert r.code == 2, r.text
    assert "imports `calcpkg` from" in r.err and "editable" in r.err and "not from the worktree" in r.err, r.err
    assert "non-editable" in r.err  # the remedy


@pytest.mark.parametrize("how", AHEAD)
def test_f0300_fail_to_pass_refuses_an_interpreter_that_imports_the_project_from_the_checkout(h, repo, tmp_path, how):
    python, site = interpreter(tmp_path / "venv")
    editable(site, AHEAD[how].format(src=str(repo / "src")))
    project(repo, python)
    started(h, repo)
    r = h("evidence", "fail_to_pass")
    assert r.code == 2 and "imports `calcpkg` from" in r.err, r.text


def test_f0301_a_src_module_named_like_the_standard_library_is_not_put_ahead_of_it(h, repo, tmp_path):
    """src/ holding `calendar.py` is not put first on PYTHONPATH (the standard library's would be shadowed, as where
    the evidence was taken it is not); then the editable install imports calcpkg from the checkout: refused."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"src/calendar.py": "EVENTS = []\n"})
    started(h, repo)
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "imports `calcpkg` from" in r.err, r.text


def test_f0301_a_flat_layout_installed_editable_is_measured_from_the_worktree(h, repo, tmp_path):
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo}\n")  # the .pth names the checkout's root
    project(repo, python, moved("calcpkg"))
    tid = started(h, repo)
    write(repo, {"calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == ["tests.test_calc::test_mul"], outcome


def test_f0301_another_project_installed_editable_from_outside_the_repository_is_not_refused(h, repo, installed,
                                                                                              tmp_path):
    python = installed
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, {"helperlib.py": "VALUE = 1\n"})
    site = next((python.parent.parent / "lib").glob("python3*/site-packages"))
    (site / "_helperlib.pth").write_text(f"{elsewhere}\n")
    tid = started(h, repo)
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 2 and lost(outcome) == [], outcome


SUBPROCESS_TEST = ("import subprocess, sys\n\n\ndef test_mul_in_a_subprocess():\n"
                   "    code = 'from calcpkg.calc import mul; assert mul(2, 3) == 6'\n"
                   "    subprocess.run([sys.executable, '-c', code], check=True)\n")


def test_f0301_a_pythonpath_folder_of_the_configuration_is_put_first(h, repo, tmp_path):
    """The base's `pythonpath = lib` folder comes before the checkout's on a subprocess's import path too."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'lib'}\n")
    project(repo, python, {**moved("lib/calcpkg"), "pytest.ini": "[pytest]\npythonpath = lib\n",
                           "tests/test_sub.py": SUBPROCESS_TEST})
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED})
    outcome = pass_to_pass(h, repo, tid)
    assert outcome["base_passed"] == 3, outcome
    assert lost(outcome) == ["tests.test_calc::test_mul", "tests.test_sub::test_mul_in_a_subprocess"], outcome


# -- FAIL_TO_PASS: a module the change adds is not imported from the checkout (F-0277's remainder) -------------

NEW_MODULE = "def sub(a, b):\n    return a - b\n"
NEW_TEST = "from calcpkg.sub import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"


def test_f0301_fail_to_pass_does_not_import_a_module_the_change_adds_from_the_checkout(h, repo, installed,
                                                                                        monkeypatch):
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")  # the test command in the checkout loads the pytest11 plugin
    started(h, repo)
    write(repo, {"src/calcpkg/sub.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_sub.py::test_sub")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == []


# -- a name the change adds, which only the checkout holds (F-0277's remainder, review 87's 03) -----------------------

def required(h) -> None:
    """A `must` requirement names the change's test (tests/test_sub.py::test_sub), proved by unit_test."""
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_sub.py::test_sub")


ONLY_IN_THE_CHECKOUT = {
    # a top-level module the change adds beside the package: the base's worktree has no `subtool`
    "top-level-module": ({"src/subtool.py": NEW_MODULE,
                          "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "subtool")}, None, "subtool"),
    # a top-level package the change adds
    "top-level-package": ({"src/subpkg/__init__.py": NEW_MODULE,
                           "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "subpkg")}, None, "subpkg"),
    # a module the change adds to a namespace package (no __init__.py): its __path__ spans worktree and checkout
    "namespace-submodule": ({"src/nspkg/sub.py": NEW_MODULE,
                             "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "nspkg.sub")},
                            {"src/nspkg/mul.py": "def mul(a, b):\n    return a * b\n"}, "nspkg.sub"),
    # a namespace package the change adds
    "new-namespace-package": ({"src/newns/sub.py": NEW_MODULE,
                               "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "newns.sub")}, None, "newns"),
}


@pytest.mark.parametrize("case", ONLY_IN_THE_CHECKOUT)
def test_f0277_fail_to_pass_does_not_import_a_name_only_the_checkout_holds(h, repo, tmp_path, monkeypatch, case):
    """The base's worktree lacks the name; the editable install's `.pth` would import it from the checkout's src/ and
    the change's test would pass "without the change": the name is hidden in the run, as a machine holding only the
    base would not find it, and the change's test fails there, which proves the requirement."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    change, base, name = ONLY_IN_THE_CHECKOUT[case]
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, base)
    tid = started(h, repo)
    write(repo, change)
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == [], f2p_blockers(h)  # the change's test failed on the base: it proves REQ-001
    log = (repo / ".harness/tasks" / tid / "evidence/fail_to_pass.log").read_text()
    assert f"No module named {name!r}: the tree under test holds none" in log, log  # hidden, not imported


def test_f0277_a_name_the_worktree_holds_but_imports_from_the_checkout_is_refused(h, repo, tmp_path, monkeypatch):
    """Hiding is for names the worktree lacks: a name it holds, imported from the checkout all the same (a `.pth` line
    that puts the checkout first), is refused with the editable-install remedy, never hidden."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"import sys; sys.path.insert(0, {str(repo / 'src')!r})\n")
    project(repo, python, {})
    started(h, repo)
    write(repo, {"src/calcpkg/sub.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST})
    required(h)
    r = h("evidence", "fail_to_pass")
    assert r.code == 2 and "not from the worktree" in r.err and "non-editable" in r.err, r.text


def test_f0277_a_namespace_package_the_base_holds_is_measured_from_the_worktree(h, repo, tmp_path, monkeypatch):
    """A namespace package of the base, changed in place (no new name), is not refused: the worktree's copy comes
    first in its __path__, and the base's test is measured there."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo / 'src'}\n")
    project(repo, python, {"src/nspkg/sub.py": "def sub(a, b):\n    return a + b\n",
                           "tests/test_other.py": "def test_other():\n    assert True\n"})
    started(h, repo)
    change = {"src/nspkg/sub.py": NEW_MODULE, "tests/test_sub.py": NEW_TEST.replace("calcpkg.sub", "nspkg.sub")}
    write(repo, change)
    required(h)
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == []


def test_f0305_a_namespace_package_the_base_holds_at_its_root_is_never_hidden(h, repo, tmp_path):
    """The base's `calcpkg/` has no `__init__.py` (a namespace package at the root of a flat layout); the change makes
    it a regular package, which the editable install's `.pth` finds in the checkout ahead of the worktree's namespace
    portion. The name is the base's: hiding it made every base test that imports it fail on the base, and a broken
    mul() went unreported (read 88's F-0305). It is refused with the editable-install remedy instead."""
    python, site = interpreter(tmp_path / "venv")
    editable(site, f"{repo}\n")  # the .pth names the checkout's root
    project(repo, python, {**moved("calcpkg"), "calcpkg/__init__.py": None})
    started(h, repo)
    write(repo, {"calcpkg/calc.py": BROKEN, "calcpkg/__init__.py": ""})
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "imports `calcpkg` from" in r.err and "non-editable" in r.err, r.text
