"""A package's `__init__.py` the base's tests reach by a relative import is code under test, measured as the change
has it (read 162's F-0565). PASS_TO_PASS protects the `__init__.py` files pytest runs on its way up to the test modules'
packages unless the tests reach them (read 161's F-0561); but `from .. import average` named no file the tests'
reach was found by, so in a project whose repository root is its package the root `__init__.py` -- the code the tests
check -- was put back as the base has it: a broken `average()` passed PASS_TO_PASS, and an honest change adding
`median()` there was refused by FAIL_TO_PASS ("passes without the change"). Beside them, the refusal a careless fix
would undo: a root `__init__.py` the change adds stays protected, whatever the tests import relatively."""

from __future__ import annotations

import pytest

from harness.core import runner_texts

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import f2p_blockers, pass_to_pass_record, protect, write


@pytest.mark.parametrize(("text", "where", "files", "reached"), [
    ("from .. import average\n", "tests/test_s.py", {"__init__.py", "tests/__init__.py", "tests/test_s.py"},
     {"__init__.py"}),  # the root package the two dots name, whose names it imports
    ("from . import helpers\n", "tests/test_s.py", {"tests/__init__.py", "tests/helpers.py"},
     {"tests/__init__.py", "tests/helpers.py"}),  # the package's submodule, and the package
    ("from . import helpers\n", "tests/test_s.py", {"__init__.py", "tests/__init__.py", "tests/helpers.py"},
     {"tests/__init__.py", "tests/helpers.py"}),  # not the packages above it, which pytest's walk runs (F-0567)
    ("from .mod import y\n", "a/b/test_x.py", {"a/__init__.py", "a/b/__init__.py", "a/b/mod/__init__.py",
                                               "a/b/mod/y.py", "a/b/mod.txt"},
     {"a/b/__init__.py", "a/b/mod/__init__.py", "a/b/mod/y.py"}),  # the package, a subpackage and its submodule
    ("from ..core import average\n", "pkg/tests/test_x.py", {"pkg/__init__.py", "pkg/core.py", "pkg/tests/core.py"},
     {"pkg/__init__.py", "pkg/core.py"}),  # the package the dots name (F-0569) and its module, not beside the test
    ("from .a.b import c\n", "p/t.py", {"p/__init__.py", "p/a/__init__.py", "p/a/b.py"},
     {"p/__init__.py", "p/a/__init__.py", "p/a/b.py"}),  # the packages on a dotted name's way
    ("from . import h\n", "src/calc/tests/t.py", {"__init__.py", "src/calc/__init__.py", "src/calc/tests/__init__.py"},
     {"src/calc/tests/__init__.py"}),
    ("from ... import x\n", "tests/t.py", {"__init__.py", "x.py"}, set()),  # beyond the root: nothing
    ("import calc\nfrom calc import average\n", "tests/t.py", {"__init__.py", "calc.py"}, set()),  # absolute
    ("def (:\n", "tests/t.py", {"__init__.py"}, set()),  # no Python that parses
    ("import importlib\naverage = importlib.import_module('..core', __package__).average\n", "pkg/tests/t.py",
     {"__init__.py", "pkg/__init__.py", "pkg/core.py"}, {"pkg/__init__.py", "pkg/core.py"}),  # a literal name (F-0569)
    ("m = import_module(name)\n", "pkg/tests/t.py", {"pkg/__init__.py"}, set()),  # a computed name: not read
], ids=["root-by-two-dots", "submodule", "no-package-above-f0567", "subpackage", "two-dots-module-f0569", "dotted",
        "src-layout", "beyond-the-root", "absolute", "unparsable", "import-module-literal-f0569", "computed-name"])
def test_f0565_a_relative_import_reaches_its_package_s_files(text, where, files, reached):
    assert runner_texts.relative_reached(text, where, files) == reached


def test_f0565_the_tests_reach_an_init_by_a_relative_import_and_what_it_imports():
    from harness.evidence.pass_to_pass import _Tested

    texts = {"tests/test_stats.py": "from .. import average\n", "__init__.py": "from .core import average\n",
             "core.py": "def average(xs):\n    return 0\n", "tests/__init__.py": ""}
    tested = _Tested(lambda rel: texts[rel].encode() if rel in texts else None, ["tests/test_stats.py"],
                     runner_texts.TreeFiles(texts), [])
    assert tested.reaches("__init__.py") and tested.reaches("core.py")


AVERAGE = "def average(xs):\n    return sum(xs) / len(xs)\n"
MEDIAN = "\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n"
TEST_STATS = "from .. import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 3\n"
TEST_MEDIAN = "from .. import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n"
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]


def _root_package(h, repo) -> str:
    """A project whose repository root is its package: `average()` in the root `__init__.py`, tests importing it
    relatively; a task started on it."""
    write(repo, {"__init__.py": AVERAGE, "tests/__init__.py": "", "tests/test_stats.py": TEST_STATS,
                 ".gitignore": "__pycache__/\n"})
    protect(repo, paths=["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Add median").out.strip()


def test_f0565_a_broken_root_package_init_the_tests_import_relatively_fails_pass_to_pass(h, repo):
    tid = _root_package(h, repo)
    write(repo, {"__init__.py": "def average(xs):\n    return 0\n" + MEDIAN,
                 "tests/test_stats.py": TEST_STATS.replace("== 3", "== 0")})  # the checkout's copy weakened
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1, rec
    assert "__init__.py" not in rec["pass_to_pass"]["protected_changed"]
    assert [item["case"] for item in rec["pass_to_pass"]["lost"]] == ["tests.test_stats::test_average"]


def test_f0565_an_honest_change_to_a_root_package_init_passes_fail_to_pass(h, repo):
    tid = _root_package(h, repo)
    write(repo, {"__init__.py": AVERAGE + MEDIAN, "tests/test_median.py": TEST_MEDIAN})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["lost"] == [], rec
    h.ok("requirement", "add", "median(xs) returns the middle value", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_median.py::test_median")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == []


HELPER_TEST = ("from calc import average\n\nfrom . import helpers\n\n\ndef test_average():\n"
               "    assert average(helpers.DATA) == 3\n")


@pytest.mark.parametrize("root_init_at_the_base", [None, ""], ids=["added-f0565", "the-base-s-f0567"])
def test_a_root_init_stays_protected_though_the_tests_import_a_helper_relatively(h, repo, root_init_at_the_base):
    # F-0561 kept: a relative import within tests/ reaches tests/, not the root above it, which is pytest's walk
    # alone: a root __init__.py the change adds is removed in PASS_TO_PASS's run (F-0565's careless fix), and one the
    # base has, empty, is put back as the base has it (F-0567); either way the change's patch in it is undone.
    write(repo, {"calc.py": AVERAGE, "tests/__init__.py": "", "tests/helpers.py": "DATA = [1, 2, 3, 6]\n",
                 "tests/test_stats.py": HELPER_TEST, ".gitignore": "__pycache__/\n",
                 **({"__init__.py": root_init_at_the_base} if root_init_at_the_base is not None else {})})
    protect(repo, paths=["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    tid = h.ok("task", "new", "Add median").out.strip()
    write(repo, {"calc.py": "def average(xs):\n    return 0\n",
                 "__init__.py": "import calc\ncalc.average = lambda xs: sum(xs) / len(xs)\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1, rec
    assert "__init__.py" in rec["pass_to_pass"]["protected_changed"]
    assert [item["case"] for item in rec["pass_to_pass"]["lost"]] == ["tests.test_stats::test_average"]


@pytest.mark.parametrize("import_line", ["from ..core import average",
                                         "import importlib; average = importlib.import_module('..core', __package__).average"],
                         ids=["from-dots", "import-module"])
def test_f0569_an_honest_change_to_the_package_init_a_relative_import_runs_passes_pass_to_pass(h, repo, import_line):
    # Tests inside the package (Django's app/tests/ shape) import its module relatively: Python runs the package's
    # __init__.py to import it, code under test, measured as the change has it: dropping a deprecated module and its
    # import there passes.
    write(repo, {"src/stats/__init__.py": "from .core import average\nfrom .legacy import mean_old\n",
                 "src/stats/core.py": AVERAGE, "src/stats/legacy.py": "def mean_old(xs):\n    return 0\n",
                 "src/stats/tests/__init__.py": "", ".gitignore": "__pycache__/\n",
                 "src/stats/tests/test_core.py": f"{import_line}\n\n\ndef test_average():\n"
                                                 "    assert average([1, 2, 3, 6]) == 3\n"})
    protect(repo, paths=["**/tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"],
            command=[PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "src", "--junitxml=.harness/local/junit.xml"])
    commit_all_ok(repo, "the base")
    tid = h.ok("task", "new", "Drop mean_old").out.strip()
    write(repo, {"src/stats/__init__.py": "from .core import average\n", "src/stats/legacy.py": None})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0, rec
    assert rec["pass_to_pass"]["lost"] == [] and "src/stats/__init__.py" not in rec["pass_to_pass"]["protected_changed"]
