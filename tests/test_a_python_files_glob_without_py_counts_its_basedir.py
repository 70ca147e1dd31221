"""A `python_files` pattern without `.py` (`check_*`) counts the basedir of the modules it collects (read 151's F-0531).
pytest matches a `python_files` pattern against a `.py` file's name, so `check_*` collects `checks/check_stats.py` as
`check_*.py` does, and its `prepend` import mode puts `checks/` (no package) first on the import path; but only the
globs ending in `.py` counted, so a `checks/statistics.py` the change added replaced the standard library's
`statistics` the base's test used as its oracle, and PASS_TO_PASS passed with the code broken. Beside each refusal,
the honest change a careless fix would refuse: a new ordinary module there, a data file the glob matches."""

from __future__ import annotations

import pytest

from harness.core import suite

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import protect, write
from support.records import record

BASE = {"checks/check_stats.py": "a", "pytest.ini": "a", "calc.py": "a"}


@pytest.mark.parametrize("glob", ["**/check_*", "**/check_*.py", "checks/**/check_*"])
def test_f0531_a_module_added_in_the_basedir_of_a_python_files_test_is_protected_whatever_the_glob_s_form(glob):
    current = {**BASE, "checks/statistics.py": "b"}
    assert suite.basedirs_of_tests(BASE, [glob]) == ["checks"]
    assert suite.changed_protected(BASE, current, [], set(), collected=[glob]) == ["checks/statistics.py"]


def test_f0531_a_data_file_the_glob_matches_is_no_test_module_and_an_ordinary_module_stays_code():
    base = {"data/check_list.json": "a", "data/check_notes.txt": "a", "calc.py": "a"}
    assert suite.basedirs_of_tests(base, ["**/check_*"]) == []
    assert suite.changed_protected(base, {**base, "data/statistics.py": "b"}, [], set(), collected=["**/check_*"]) == []
    current = {**BASE, "checks/helpers_new.py": "b"}
    assert suite.changed_protected(BASE, current, [], set(), collected=["**/check_*"]) == []


def test_f0531_collects_is_pytest_s_match_of_a_python_module():
    assert suite.collects("checks/check_stats.py", ["**/check_*"])
    assert suite.collects("checks/check_stats.py", ["**/check_*.py"])
    assert not suite.collects("checks/check_stats.json", ["**/check_*"])
    assert not suite.collects("checks/stats.py", ["**/check_*"])


# End to end: the reviewer's project.
STATS = "def average(xs):\n    return sum(xs) / len(xs)\n"
CHECK_STATS = """\
    import statistics

    from calc import average


    def test_average():
        assert average([1, 2, 3, 6]) == statistics.mean([1, 2, 3, 6])
    """
FAKE_STATISTICS = "def mean(xs):\n    from calc import average\n    return average(xs)\n"
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "checks", "--junitxml=.harness/local/junit.xml"]


def test_f0531_a_standard_module_added_beside_python_files_checks_is_removed_in_pass_to_pass(h, repo):
    write(repo, {"pytest.ini": "[pytest]\npython_files = check_*\n", "calc.py": STATS, "checks/check_stats.py": CHECK_STATS,
                 ".gitignore": "__pycache__/\n"})
    protect(repo, paths=["**/check_*", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    tid = h.ok("task", "new", "Add median").out.strip()
    write(repo, {"calc.py": "def average(xs):\n    return 0\n", "checks/statistics.py": FAKE_STATISTICS})
    assert h("evidence", "unit_test").code == 0  # the change's statistics.py agrees with the broken average()
    r = h("evidence", "pass_to_pass")
    assert r.code == 1, r.text
    rec = record(repo, tid, "pass_to_pass")
    assert "checks/statistics.py" in rec["pass_to_pass"]["protected_changed"]
    assert {item["case"] for item in rec["pass_to_pass"]["lost"]} == {"checks.check_stats::test_average"}
