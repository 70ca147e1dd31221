"""A module the change adds in src/, named like one pytest imports as it starts, is judged as at the tree's root (read
151's F-0530). Every worktree run of the harness (PASS_TO_PASS's among them) puts the worktree's src/ first on
PYTHONPATH, ahead of the standard library and site-packages; but only the root, the `pythonpath` folders and the tests'
basedirs counted, so a `src/iniconfig.py` the change added was kept in PASS_TO_PASS's worktree and imported by pytest
there in place of the real one (in the checkout, src/ on no path, it never loads), and reported every case passed.
The folders the run puts first and those PASS_TO_PASS protects are one list (`pytest_startup.first_on_the_path`).
Beside each refusal, the honest change a careless fix would refuse: a new ordinary module in src/, the project's own."""

from __future__ import annotations

from harness.core import pytest_startup, suite
from harness.evidence import tree_imports

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import FAKE_INICONFIG, pass_to_pass_record, protect, write


def test_f0530_the_folders_first_on_the_path_are_src_and_the_pythonpath_folders():
    assert pytest_startup.first_on_the_path({}) == ["src"]
    assert pytest_startup.first_on_the_path({"pytest.ini": "[pytest]\npythonpath = lib src\n"}) == ["src", "lib"]


def test_f0530_the_worktree_run_puts_first_exactly_the_folders_pass_to_pass_counts(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = lib\n")
    for folder in ("src", "lib", "docs"):
        (tmp_path / folder).mkdir()
    got = [f.relative_to(tmp_path).as_posix() for f in tree_imports.folders(tmp_path)]
    assert got == pytest_startup.first_on_the_path({"pytest.ini": (tmp_path / "pytest.ini").read_text()}) == ["src", "lib"]


def test_f0530_a_runner_module_added_in_src_is_protected_and_the_project_s_own_stays_code():
    first = pytest_startup.first_on_the_path({})
    base = {"calc.py": "a", "tests/test_stats.py": "a", "src/pluggy.py": "a"}
    current = {**base, "src/iniconfig.py": "b", "src/packaging/__init__.py": "b", "src/helpers_new.py": "b",
               "src/pluggy.py": "b"}
    assert suite.changed_protected(base, current, ["tests/**"], set(), folders=first) == [
        "src/iniconfig.py", "src/packaging/__init__.py"]


# End to end: the reviewer's flat project, with no src/ at the base.
CALC = "def average(xs):\n    return sum(xs) / len(xs)\n"
TEST_STATS = "from calc import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 3\n"
WEAK_TEST = "from calc import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) is not None\n"
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]


def _flat_project(h, repo) -> str:
    write(repo, {"calc.py": CALC, "tests/test_stats.py": TEST_STATS, "src/reporting.py": "def show(x):\n    return x\n",
                 ".gitignore": "__pycache__/\n"})
    protect(repo, command=CMD)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Add median").out.strip()



def test_f0530_an_iniconfig_added_in_src_is_removed_in_pass_to_pass(h, repo):
    tid = _flat_project(h, repo)
    write(repo, {"calc.py": "def average(xs):\n    return 0\n", "tests/test_stats.py": WEAK_TEST,
                 "src/iniconfig.py": FAKE_INICONFIG})
    assert h("evidence", "unit_test").code == 0  # in the checkout src/ is on no path: the weakened test passes
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "src/iniconfig.py" in rec["pass_to_pass"]["protected_changed"]
    assert {item["case"] for item in rec["pass_to_pass"]["lost"]} == {"tests.test_stats::test_average"}


def test_f0530_an_honest_change_adding_and_editing_ordinary_modules_in_src_passes_pass_to_pass(h, repo):
    tid = _flat_project(h, repo)
    write(repo, {"calc.py": CALC + "\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n",
                 "src/helpers_new.py": "X = 1\n", "src/reporting.py": "def show(x):\n    return str(x)\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["lost"] == []
    assert not {"src/helpers_new.py", "src/reporting.py"} & set(rec["pass_to_pass"]["protected_changed"])
