"""An `__init__.py` pytest runs on its way to a test module's package is protected like a conftest.py (read 161's
F-0561). In its default `prepend` import mode pytest walks up from a test module or conftest.py while each folder holds
an `__init__.py` and is named as an identifier, and imports the module under the package names it found, running each
`__init__.py` on the way first. PASS_TO_PASS's worktree is a folder named `tree`: a root `__init__.py` the change added
made the base's tests `tree.tests.test_stats` (or a root conftest.py `tree.conftest`) and patched the broken code
they check before they ran; the change's code stayed wrong for every user, and PASS_TO_PASS passed. Beside each
refusal, the honest change a careless fix would refuse: a package's `__init__.py` the tests import is code under test,
and runs as the change has it."""

from __future__ import annotations

import pytest

from harness.core import suite

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import pass_to_pass_record, protect, write


@pytest.mark.parametrize(("files", "modules", "walked"), [
    ({"__init__.py", "tests/__init__.py", "tests/test_s.py"}, ["tests/test_s.py"], {"__init__.py", "tests/__init__.py"}),
    ({"__init__.py", "conftest.py"}, ["conftest.py"], {"__init__.py"}),  # a root conftest.py
    ({"__init__.py", "tests/test_s.py"}, ["tests/test_s.py"], set()),  # tests/ is no package: the walk stops there
    ({"__init__.py", "my-tests/__init__.py", "my-tests/test_s.py"}, ["my-tests/test_s.py"], set()),  # no identifier
    ({"src/calc/__init__.py", "src/calc/tests/__init__.py", "src/calc/tests/test_s.py"}, ["src/calc/tests/test_s.py"],
     {"src/calc/__init__.py", "src/calc/tests/__init__.py"}),  # src/ has none: the walk ends below it
    ({"tests/test_s.py"}, ["tests/test_s.py"], set()),
], ids=["root-above-a-test-package", "root-conftest", "no-package", "not-an-identifier", "src-layout", "none"])
def test_the_inits_pytest_walks_through_are_the_packages_above_each_module(files, modules, walked):
    assert suite.package_inits(files, modules) == walked


def test_test_modules_are_pytest_s_default_names_and_the_configured_ones():
    files = ["tests/test_a.py", "tests/b_test.py", "conftest.py", "tests/helpers.py", "checks/check_c.py"]
    assert suite.test_modules(files) == ["tests/test_a.py", "tests/b_test.py", "conftest.py"]
    assert suite.test_modules(files, ["**/check_*.py"])[-1] == "checks/check_c.py"


CALC = "def average(xs):\n    return sum(xs) / len(xs)\n"
BROKEN = "def average(xs):\n    return 0\n"
TEST_STATS = "from calc import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 3\n"
ROOT_INIT = "import calc\ncalc.average = lambda xs: sum(xs) / len(xs)\n"
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]


def _base(h, repo, layout: str) -> str:
    files = {"calc.py": CALC, "tests/test_stats.py": TEST_STATS, ".gitignore": "__pycache__/\n"}
    files.update({"tests/__init__.py": ""} if layout == "package" else {"conftest.py": ""})
    write(repo, files)
    protect(repo, paths=["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Add median").out.strip()


@pytest.mark.parametrize("layout", ["package", "conftest"])
def test_a_root_init_the_change_adds_is_removed_in_pass_to_pass(h, repo, layout):
    tid = _base(h, repo, layout)
    write(repo, {"calc.py": BROKEN, "__init__.py": ROOT_INIT})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1, rec
    assert "__init__.py" in rec["pass_to_pass"]["protected_changed"]
    assert [item["case"] for item in rec["pass_to_pass"]["lost"]] == ["tests.test_stats::test_average"]


def test_an_honest_change_to_a_package_init_the_tests_import_passes_pass_to_pass(h, repo):
    # The tests live inside the package and import it: its __init__.py is code under test, not pytest's walk alone.
    write(repo, {"calc/__init__.py": "from calc.core import average\n", "calc/core.py": CALC,
                 "calc/tests/__init__.py": "", ".gitignore": "__pycache__/\n",
                 "calc/tests/test_stats.py": TEST_STATS})
    protect(repo, paths=["**/tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"],
            command=[PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "calc", "--junitxml=.harness/local/junit.xml"])
    commit_all_ok(repo, "the base")
    tid = h.ok("task", "new", "Add median").out.strip()
    write(repo, {"calc/__init__.py": "from calc.core import average, median\n",
                 "calc/core.py": CALC + "\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0, rec
    assert rec["pass_to_pass"]["lost"] == [] and "calc/__init__.py" not in rec["pass_to_pass"]["protected_changed"]
