"""`harness init` names a folder of the test modules the project's `python_files` collects that no path it writes
protects whole (read 151's F-0532): only pytest's default names were looked at, so `python_files = check_*.py` (no
`testpaths`), its checks in `checks/check_calc.py` beside `checks/helpers.py`, got `**/check_*.py` protected and no
word about `checks/`: the helpers and data beside the checks were left open in silence (read 148's F-0524). The
honest layouts a careless fix would name: a package's folder, the root, a `testpaths` folder protected whole."""

from __future__ import annotations

import json

import pytest
import yaml

from harness.core import pytest_startup, suite

from support.protected_project import CALC, TEST_CMD, write


def _named(files: list[str], ini: str) -> list[str]:
    configs, listed = {"pytest.ini": ini}, [*files, "pytest.ini"]
    return suite.unprotected_test_folders(listed, suite.detected(listed, configs), pytest_startup.collected(configs))


@pytest.mark.parametrize(("ini", "files", "want"), [
    ("python_files = check_*.py", ["calc.py", "checks/check_calc.py", "checks/helpers.py", "checks/golden.json"],
     ["checks"]),
    ("python_files = *_spec.py", ["calc.py", "spec/calc_spec.py", "spec/helpers.py"], ["spec"]),
    ("python_files = check_*", ["calc.py", "checks/check_calc.py", "checks/helpers.py"], ["checks"]),
], ids=["check_py", "spec", "without_py"])
def test_f0532_a_folder_of_python_files_tests_no_path_protects_whole_is_named(ini, files, want):
    assert _named(files, f"[pytest]\n{ini}\n") == want


@pytest.mark.parametrize(("ini", "files"), [
    ("python_files = check_*.py", ["calc/__init__.py", "calc/check_ops.py", "calc/ops.py"]),  # a package's folder
    ("python_files = check_*.py", ["calc.py", "check_calc.py"]),                              # the root
    ("testpaths = checks\npython_files = check_*.py", ["calc.py", "checks/check_calc.py", "checks/helpers.py"]),
    ("python_files = check_*", ["calc.py", "data/check_list.json"]),                          # no test module
], ids=["package", "root", "testpaths_whole", "data_only"])
def test_f0532_the_code_s_folders_and_a_folder_protected_whole_are_not_named(ini, files):
    assert _named(files, f"[pytest]\n{ini}\n") == []


def test_f0532_init_names_the_python_files_folder_in_text_and_json(repo):
    from support.cli import cli

    write(repo, {".gitignore": "__pycache__/\n", "pytest.ini": "[pytest]\npython_files = check_*.py\n", "calc.py": CALC,
                 "checks/check_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
                 "checks/helpers.py": "X = 1\n"})
    (repo / ".harness").mkdir()
    unit = {"command": TEST_CMD, "junit": ".harness/local/junit.xml"}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["unprotected_test_folders"] == [{"folder": "checks", "suite_path": "checks/**"}]
    for name in ("gate.yaml", ".gitignore"):
        (repo / ".harness" / name).unlink()
    r = cli(repo, "init")
    assert r.returncode == 0 and "`checks/**`" in r.stdout, r.stdout + r.stderr
