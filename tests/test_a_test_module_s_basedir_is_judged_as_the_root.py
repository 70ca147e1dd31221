"""A module the change adds in a folder pytest puts first on the import path for a test module or conftest.py of the
run is judged as at the tree's root (read 148's F-0523). In its default `prepend` import mode pytest inserts, at
sys.path[0], the "basedir" of each test module and conftest.py it imports: the first folder upward that is no package
(`src/` for `src/calc/tests/test_stats.py` inside the packages `calc` and `calc.tests`). A `src/statistics.py` the
change adds there replaced the standard library's `statistics` the base's test used as its oracle, and PASS_TO_PASS
passed with the code broken. Beside each refusal, the honest change a careless fix would refuse: a new ordinary module
there, a module of that name inside the package (`calc.statistics`, shadowing nothing), the project's own module."""

from __future__ import annotations

import pytest

from harness.core import suite

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import pass_to_pass_record, protect, write

# Tests inside the package, under src/: pytest puts src/ first on the import path to import them.
IN_PACKAGE = {"src/calc/__init__.py": "a", "src/calc/stats.py": "a", "src/calc/tests/__init__.py": "a",
              "src/calc/tests/test_stats.py": "a"}


def test_a_module_the_change_adds_in_a_test_package_s_basedir_is_judged_as_at_the_root():
    current = {**IN_PACKAGE, "src/statistics.py": "b"}
    assert suite.changed_protected(IN_PACKAGE, current, [], set()) == ["src/statistics.py"]


@pytest.mark.parametrize(("base", "added"), [
    ({"checks/test_x.py": "a"}, "checks/json.py"),  # a test module in no package: its own folder
    ({"checks/x_test.py": "a"}, "checks/json/__init__.py"),  # pytest's other default name; a package in its place
    ({"pkg/conftest.py": "a", "pkg/code.py": "a"}, "pkg/pprint.py"),  # a conftest.py's basedir
    ({"lib/__init__.py": "a", "lib/conftest.py": "a"}, "statistics.py"),  # the root: as before
    ({"a/b/__init__.py": "a", "a/b/c/__init__.py": "a", "a/b/c/test_d.py": "a"}, "a/decimal.py"),  # above the packages
    ({"pkg/__init__.py": "a", "pkg/tests/test_y.py": "a"}, "pkg/tests/statistics.py"),  # tests folder no package
], ids=["own-folder", "suffix-name", "conftest", "root", "above-packages", "inside-a-package-but-no-package"])
def test_a_module_added_in_any_test_module_or_conftest_basedir_is_protected(base, added):
    assert suite.changed_protected(base, {**base, added: "b"}, [], set()) == [added]


def test_a_module_added_in_the_basedir_of_a_python_files_test_is_protected():
    # The base configuration's `python_files = check_*.py`: pytest imports checks/check_x.py as a test module.
    base = {"checks/check_x.py": "a", "pytest.ini": "a"}
    current = {**base, "checks/statistics.py": "b"}
    assert suite.changed_protected(base, current, [], set(), collected=["**/check_*.py"]) == ["checks/statistics.py"]
    assert suite.changed_protected(base, current, [], set(), collected=["**/test*.txt"]) == []  # a doctest file: none


def test_the_package_layout_of_the_run_decides_the_basedir():
    # The change makes the tests' folder a package: unprotected, its `__init__.py` stays in the run, and pytest puts
    # src/ first. Protected (a tests/** path), the base's layout is the run's: src/calc/tests/ comes first, not src/.
    base = {"src/calc/__init__.py": "a", "src/calc/tests/test_stats.py": "a"}
    current = {**base, "src/calc/tests/__init__.py": "b", "src/statistics.py": "b"}
    assert suite.changed_protected(base, current, [], set()) == ["src/statistics.py"]
    assert suite.changed_protected(base, current, ["**/tests/**"], set()) == ["src/calc/tests/__init__.py"]


@pytest.mark.parametrize("added", ["src/helpers_new.py", "src/calc/statistics.py", "src/calc/json/__init__.py",
                                   "src/calc/tests/helpers.py", "docs/statistics.py", "src/data/statistics.txt"])
def test_an_ordinary_module_added_beside_a_test_package_stays_code(added):
    # src/calc/statistics.py is `calc.statistics` inside the package: it stands in place of no module pytest imports.
    assert suite.changed_protected(IN_PACKAGE, {**IN_PACKAGE, added: "b"}, [], set()) == []


def test_the_project_s_own_module_in_a_basedir_stays_code():
    base = {**IN_PACKAGE, "src/statistics.py": "a"}
    assert suite.changed_protected(base, {**base, "src/statistics.py": "b"}, [], set()) == []


# End to end: the reviewer's project, the tests inside the package under src/.
STATS = "def average(xs):\n    return sum(xs) / len(xs)\n"
TEST_STATS = """\
    import statistics

    from calc.stats import average


    def test_average():
        assert average([1, 2, 3, 6]) == statistics.mean([1, 2, 3, 6])
    """
FAKE_STATISTICS = "def mean(xs):\n    from calc.stats import average\n    return average(xs)\n"
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "src", "--junitxml=.harness/local/junit.xml"]


def _based_on_tests_in_the_package(h, repo) -> str:
    write(repo, {"src/calc/__init__.py": "", "src/calc/tests/__init__.py": "", "src/calc/stats.py": STATS,
                 "src/calc/tests/test_stats.py": TEST_STATS, ".gitignore": "__pycache__/\n"})
    protect(repo, paths=["**/tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Add median").out.strip()



def test_a_standard_module_added_beside_the_test_package_is_removed_in_pass_to_pass(h, repo):
    tid = _based_on_tests_in_the_package(h, repo)
    write(repo, {"src/calc/stats.py": "def average(xs):\n    return 0\n", "src/statistics.py": FAKE_STATISTICS})
    assert h("evidence", "unit_test").code == 0  # the change's statistics.py agrees with the broken average()
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "src/statistics.py" in rec["pass_to_pass"]["protected_changed"]
    assert {item["case"] for item in rec["pass_to_pass"]["lost"]} == {"src.calc.tests.test_stats::test_average"}


def test_an_honest_change_adding_modules_beside_and_inside_the_test_package_passes_pass_to_pass(h, repo):
    tid = _based_on_tests_in_the_package(h, repo)
    write(repo, {"src/calc/stats.py": STATS + "\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n",
                 "src/helpers_new.py": "X = 1\n", "src/calc/statistics.py": "from calc.stats import median\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["lost"] == []
    assert not {"src/helpers_new.py", "src/calc/statistics.py"} & set(rec["pass_to_pass"]["protected_changed"])
