"""A test folder not named `tests/` or `test/` (read 148's F-0524): pytest's own repository keeps its tests, the
helper modules they import and the data they compare against in `testing/` (no `testpaths`), and `harness init`
protected only the `test_*.py` files there, so the change could weaken `testing/helpers.py` or rewrite the golden
`testing/expected.json` and PASS_TO_PASS passed. A top-level `testing/` holding a test module and no `__init__.py` is
protected whole, as `tests/**` is; a `testing/` that is a package or an import folder of the code, and a nested
`pkg/testing/` (`numpy.testing`), are code. Any other folder of test files no path protects whole is named by
`harness init`, with the path that would protect it."""

from __future__ import annotations

import json

import pytest
import yaml

from harness.core import suite

from support.gitrepo import commit_all_ok
from support.protected_project import BUGGY, CALC, SUB, TEST_CMD, write
from support.records import record

HELPERS = "def check(got, want):\n    assert got == want, (got, want)\n"
WEAK_HELPERS = "def check(got, want):\n    assert got is not None\n"
HELPED_TESTS = ("from calc import add, mul\nfrom helpers import check\n\n\n"
                "def test_add():\n    check(add(2, 3), 5)\n\n\ndef test_mul():\n    check(mul(2, 3), 6)\n")
EXPECTED = '{"mul": [2, 3, 6]}\n'
GOLDEN_TESTS = """\
    import json
    import pathlib

    from calc import add, mul

    EXPECTED = json.loads((pathlib.Path(__file__).parent / "expected.json").read_text())


    def test_add():
        assert add(2, 3) == 5


    def test_mul():
        a, b, want = EXPECTED["mul"]
        assert mul(a, b) == want
    """
LAYOUTS = {"helper": {"testing/helpers.py": HELPERS, "testing/test_calc.py": HELPED_TESTS},
           "golden": {"testing/expected.json": EXPECTED, "testing/test_calc.py": GOLDEN_TESTS}}
# What the change does beside breaking mul(2, 3): the helper that would catch it weakened, the golden file rewritten.
WEAKENED = {"helper": {"testing/helpers.py": WEAK_HELPERS}, "golden": {"testing/expected.json": '{"mul": [2, 3, 5]}\n'}}
PYTEST_LAYOUT = ["calc.py", "testing/test_calc.py", "testing/helpers.py", "testing/expected.json",
                 "testing/sub/test_more.py"]


def test_a_top_level_testing_folder_of_tests_is_protected_whole():
    got = suite.detected(PYTEST_LAYOUT)
    assert "testing/**" in got and "**/testing/**" not in got
    for helper in ("testing/helpers.py", "testing/expected.json", "testing/sub/test_more.py"):
        assert suite.matches(helper, got), (helper, got)
    assert not suite.matches("calc.py", got)
    assert suite.unprotected_test_folders(PYTEST_LAYOUT, got) == []


def test_tests_beside_a_testing_folder_keep_both_protected():
    got = suite.detected(["tests/test_a.py", "testing/test_b.py", "testing/data.json", "calc.py"])
    assert got[:2] == ["tests/**", "testing/**"] and "**/test_*.py" not in got


def test_the_tests_folder_is_written_as_before():
    assert suite.detected(["tests/test_a.py", "tests/helpers.py", "calc.py"]) == ["tests/**", *suite.CONFIG_FILES]


@pytest.mark.parametrize("files", [
    ["testing/__init__.py", "testing/asserts.py", "testing/test_asserts.py", "calc.py"],  # a package of the code
    ["pkg/__init__.py", "pkg/testing/__init__.py", "pkg/testing/utils.py", "pkg/testing/test_utils.py"],  # numpy.testing
    ["pkg/testing/utils.py", "pkg/testing/test_utils.py", "pkg/calc.py"],  # nested, even without an __init__.py
    ["testing/fixtures.py", "testing/data.json", "tests/test_calc.py", "calc.py"],  # no test module in testing/
], ids=["package", "nested_package", "nested_folder", "no_test_module"])
def test_a_testing_folder_of_the_code_is_not_protected_whole(files):
    got = suite.detected(files)
    assert "testing/**" not in got and "**/testing/**" not in got
    code = [f for f in files if "test_" not in f and not f.startswith("tests/")]
    assert not [f for f in code if suite.matches(f, got)], got


@pytest.mark.parametrize("configs", [
    {"pytest.ini": "[pytest]\npythonpath = testing\n"},
    {"pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["testing"]\n'},
], ids=["ini", "pyproject"])
def test_a_testing_folder_on_pytest_s_pythonpath_is_an_import_folder_of_the_code(configs):
    files = ["testing/calcutil.py", "testing/test_calcutil.py", *configs]
    got = suite.detected(files, configs)
    assert "testing/**" not in got and not suite.matches("testing/calcutil.py", got)


@pytest.mark.parametrize(("files", "want"), [
    (["spec/test_calc.py", "spec/helpers.py", "calc.py"], ["spec"]),
    (["checks/unit/calc_test.py", "checks/unit/golden.json", "spec/test_a.py", "calc.py"], ["checks/unit", "spec"]),
    (["tests/test_calc.py", "tests/helpers.py", "calc.py"], []),          # protected whole
    (["packages/a/tests/test_x.py", "packages/a/a.py"], []),              # **/tests/**
    (["test_calc.py", "calc.py"], []),                                    # beside the code at the root
    (["calc/__init__.py", "calc/test_ops.py", "calc/ops.py"], []),        # beside the code in its package
], ids=["spec", "two_folders", "tests", "nested_tests", "root", "package"])
def test_folders_of_test_files_no_path_protects_whole_are_named(files, want):
    assert suite.unprotected_test_folders(files, suite.detected(files)) == want


def _initialized(repo, files: dict[str, str], *args: str):
    from support.cli import cli

    write(repo, {".gitignore": "__pycache__/\n", **files})
    (repo / ".harness").mkdir()
    unit = {"command": TEST_CMD, "junit": ".harness/local/junit.xml"}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init", *args)
    assert r.returncode == 0, r.stdout + r.stderr
    return r, yaml.safe_load((repo / ".harness/gate.yaml").read_text())["gate"]["suite"]["paths"]


def test_init_writes_the_testing_folder_and_names_no_folder_left_open(repo):
    r, paths = _initialized(repo, {"calc.py": CALC, **LAYOUTS["helper"]})
    assert "testing/**" in paths and "testing/**" in r.stdout
    assert "outside" not in r.stdout


def test_init_names_a_folder_of_tests_it_does_not_know_and_how_to_protect_it(repo):
    r, paths = _initialized(repo, {"calc.py": CALC, "spec/helpers.py": HELPERS, "spec/test_calc.py": HELPED_TESTS})
    assert not suite.matches("spec/helpers.py", paths)
    assert "spec/" in r.stdout and "`spec/**`" in r.stdout and "suite.paths" in r.stdout, r.stdout


def test_init_json_says_what_it_protects_and_which_folders_it_left_open(repo):
    r, paths = _initialized(repo, {"calc.py": CALC, "spec/test_calc.py": HELPED_TESTS, "spec/helpers.py": HELPERS,
                                   "testing/test_more.py": HELPED_TESTS}, "--json")
    out = json.loads(r.stdout)
    assert out["suite_paths"] == paths and "testing/**" in paths
    assert out["unprotected_test_folders"] == [{"folder": "spec", "suite_path": "spec/**"}]
    assert ".harness/gate.yaml" in out["created"] and out["next"]


def test_init_json_of_a_tests_folder_names_no_folder_left_open(repo):
    r, paths = _initialized(repo, {"calc.py": CALC, "tests/test_calc.py": HELPED_TESTS}, "--json")
    out = json.loads(r.stdout)
    assert out["suite_paths"] == paths and paths[0] == "tests/**" and out["unprotected_test_folders"] == []


def test_init_of_a_testing_package_of_the_code_leaves_it_code(repo):
    r, paths = _initialized(repo, {"calc.py": CALC, "testing/__init__.py": "", "testing/asserts.py": HELPERS,
                                   "tests/test_calc.py": HELPED_TESTS.replace("helpers", "testing.asserts")})
    assert "testing/**" not in paths and not suite.matches("testing/asserts.py", paths)
    assert "outside" not in r.stdout


def _task_on_init_s_suite(h, repo, files: dict[str, str]) -> str:
    """``files`` and calc.py committed under the suite `harness init` writes for them, and a task on that base."""
    (repo / ".harness/gate.yaml").unlink()
    write(repo, {".gitignore": "__pycache__/\n", "calc.py": CALC, **files})
    doc = yaml.safe_load((repo / ".harness/config.yaml").read_text())
    doc["evidence"] = {"unit_test": {"command": TEST_CMD, "junit": ".harness/local/junit.xml"}}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    h.ok("init")
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Make mul faster").out.strip()


@pytest.mark.parametrize("layout", ["helper", "golden"])
def test_a_weakened_helper_or_rewritten_golden_file_in_testing_fails_pass_to_pass(h, repo, layout):
    tid = _task_on_init_s_suite(h, repo, LAYOUTS[layout])
    write(repo, {"calc.py": BUGGY, **WEAKENED[layout]})
    assert h("evidence", "unit_test").code == 0  # the change's own helper passes the broken mul
    r = h("evidence", "pass_to_pass")
    rec = record(repo, tid, "pass_to_pass")
    assert r.code == 1 and rec["outcome"] != "passed", r.text
    assert [c["case"] for c in rec["pass_to_pass"]["lost"]] == ["testing.test_calc::test_mul"]
    assert rec["pass_to_pass"]["protected_changed"] == list(WEAKENED[layout])


def test_an_honest_change_with_tests_in_testing_passes_pass_to_pass(h, repo):
    tid = _task_on_init_s_suite(h, repo, LAYOUTS["helper"])
    write(repo, {"calc.py": SUB, "testing/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
    r = h("evidence", "pass_to_pass")
    rec = record(repo, tid, "pass_to_pass")
    assert r.code == 0 and rec["pass_to_pass"]["protected_changed"] == ["testing/test_sub.py"], r.text
