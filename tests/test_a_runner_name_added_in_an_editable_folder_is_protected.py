"""A module the change adds in a folder of the checkout the test command's interpreter imports from (an editable
install's `.pth` naming `lib/`), named like one pytest imports as it starts, is protected (read 153's F-0540).

PASS_TO_PASS's worktree run puts the worktree's counterparts of those folders first on PYTHONPATH, ahead of
site-packages (read 89's F-0307), but only src/ and the `pythonpath` folders counted as folders where such a module
stands in for pytest's (read 151's F-0530): a `lib/iniconfig.py` the change added was kept in the worktree, imported
by pytest there in place of the real one (in the checkout lib/ comes after site-packages, and it never loads), and
reported every case passed. The folders come from the probe that already lists the interpreter's installed names: one
probe of it answers both.

Beside the refusal, the honest changes a careless fix would refuse: an ordinary module added in lib/, the project's
own module of such a name there at the base, a project with no editable install, a shell-line command, and an
interpreter that cannot be asked.
"""

from __future__ import annotations

import os

import pytest
import yaml

from harness import runner
from harness.evidence import tree_imports
from harness.evidence.runner_names import installed_names

from support.editable_project import BROKEN, CALC, WEAKENED, distribution, interpreter, moved, project
from support.gitrepo import commit_all_ok
from support.protected_project import FAKE_INICONFIG, pass_to_pass_record, write

# The project's own module named like an installed distribution's (PyYAML's `yaml`, which the suite's interpreter
# has), there at the base: its code, which a change may edit.
OWN_YAML = "def dump(x):\n    return str(x)\n"


def started(h, repo) -> str:
    commit_all_ok(repo, "calcpkg in lib/ with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


def lost(rec: dict) -> list[str]:
    return [item["case"] for item in rec["pass_to_pass"]["lost"]]


@pytest.fixture
def in_lib(h, repo, tmp_path):
    """The package in lib/ (setuptools' `package-dir = {"" = "lib"}`), installed editable: a .pth naming lib/, read
    after the one that gives the interpreter pytest and iniconfig (as site-packages comes first for the reviewer's)."""
    python, site = interpreter(tmp_path / "venv")
    distribution(site)
    (site / "zzz-editable-calcpkg.pth").write_text(f"{repo / 'lib'}\n")
    project(repo, python, {**moved("lib/calcpkg"), "lib/yaml.py": OWN_YAML})
    return python


def test_f0540_an_iniconfig_added_in_an_editable_lib_folder_is_removed_in_pass_to_pass(h, repo, in_lib):
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED, "lib/iniconfig.py": FAKE_INICONFIG})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "lib/iniconfig.py" in rec["pass_to_pass"]["protected_changed"], rec
    assert lost(rec) == ["tests.test_calc::test_mul"]


def test_f0540_an_ordinary_module_added_and_the_projects_own_edited_in_lib_are_code(h, repo, in_lib):
    assert "yaml" in installed_names([str(in_lib)], repo)  # lib/yaml.py is named like an installed distribution's
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n",
                 "lib/helpers_new.py": "X = 1\n", "lib/yaml.py": OWN_YAML + "\n\nSAFE = True\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and lost(rec) == [], rec
    assert not {"lib/helpers_new.py", "lib/yaml.py"} & set(rec["pass_to_pass"]["protected_changed"])


def test_f0540_without_an_editable_install_a_module_in_lib_is_on_no_path_and_not_protected(h, repo, tmp_path):
    python, site = interpreter(tmp_path / "venv")
    distribution(site)  # its metadata alone (the plugin's entry point), the package imported from the root
    project(repo, python, moved("calcpkg"))  # a flat layout: calcpkg at the root, lib/ on no import path
    tid = started(h, repo)
    write(repo, {"lib/iniconfig.py": "VERSION = 1\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and "lib/iniconfig.py" not in rec["pass_to_pass"]["protected_changed"], rec


def test_f0540_a_shell_line_commands_honest_change_passes(h, repo, in_lib):
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["unit_test"]["command"] = " ".join(doc["evidence"]["unit_test"]["command"])
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    tid = started(h, repo)
    write(repo, {"lib/helpers_new.py": "X = 1\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and "lib/helpers_new.py" not in rec["pass_to_pass"]["protected_changed"], rec


def test_f0540_the_runners_folders_come_from_the_probe_that_gives_its_names(repo, in_lib, monkeypatch):
    from harness.evidence.runner_names import runner_folders

    started_programs: list[str] = []
    real = runner.run_command

    def counted(argv, *args, **kwargs):
        started_programs.append(str(argv[0]))
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(runner, "run_command", counted)
    argv = [str(in_lib), "-m", "pytest"]
    assert "yaml" in installed_names(argv, repo)
    assert runner_folders(argv, repo) == ["lib"]
    assert started_programs.count(str(in_lib)) == 1  # one probe of the test command's interpreter answers both


def test_f0540_an_interpreter_that_cannot_say_adds_no_folder_and_refuses_nothing_here(tmp_path):
    from harness.evidence.runner_names import runner_folders

    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.write_text("#!/bin/sh\nexit 3\n")
    python.chmod(0o755)
    argv = [str(python), "-m", "pytest"]
    assert runner_folders(argv, tmp_path) == []
    assert installed_names(argv, tmp_path) == installed_names([], tmp_path)  # the harness's own names, as before
    assert runner_folders(["sh", "-c", "pytest"], tmp_path) == []  # no Python: nothing asked


def test_f0540_the_folders_an_interpreter_names_are_the_checkouts_with_or_without_a_worktree(tmp_path):
    checkout = tmp_path / "checkout"
    worktree = checkout / ".harness/local/worktree"
    for folder in ("lib", "packages/x/src", ".venv/lib/python3/site-packages", "vendor/site-packages/y"):
        (checkout / folder).mkdir(parents=True)
    worktree.mkdir(parents=True)
    said = {"prefix": str(checkout / ".venv"), "base_prefix": "/usr",
            "path": [str(checkout / "lib"), str(checkout / ".venv/lib/python3/site-packages"), str(checkout),
                     str(checkout / "vendor/site-packages/y"), str(worktree / "lib"), "/usr/lib/python3"],
            "finders": [str(checkout / "packages/x/src/xpkg/__init__.py")]}
    assert tree_imports.said_folders(said, checkout) == ["lib", ".harness/local/worktree/lib", "packages/x/src"]
    assert tree_imports.said_folders(said, checkout, worktree) == ["lib", "packages/x/src"]


# The project's root conftest.py puts lib/ on the import path after site-packages and loads its plugin from there:
# the test command's interpreter has no install of it.
LIB_CONFTEST = ('import os, sys\nsys.path.append(os.path.join(os.path.dirname(__file__), "lib"))\n'
                'pytest_plugins = ["calcpkg.plugin"]\n')


@pytest.fixture
def lib_on_the_path_python3(h, repo, tmp_path, monkeypatch):
    """The test command's interpreter installs nothing of the project; the first `python3` on PATH (a developer's
    other environment, which a script or a shell line starts) has it installed editable from lib/: the worktree run
    asks it too, and puts the worktree's lib/ first (read 157's F-0549)."""
    python, _ = interpreter(tmp_path / "venv")
    other, other_site = interpreter(tmp_path / "dev")
    (other_site / "zzz-editable-calcpkg.pth").write_text(f"{repo / 'lib'}\n")
    monkeypatch.setenv("PATH", f"{other.parent}{os.pathsep}{os.environ['PATH']}")
    project(repo, python, {**moved("lib/calcpkg"), "conftest.py": LIB_CONFTEST})
    return other


def test_f0549_an_iniconfig_added_where_the_python3_on_path_imports_from_is_removed(h, repo, lib_on_the_path_python3):
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": BROKEN, "tests/test_calc.py": WEAKENED, "lib/iniconfig.py": FAKE_INICONFIG})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "lib/iniconfig.py" in rec["pass_to_pass"]["protected_changed"], rec
    assert lost(rec) == ["tests.test_calc::test_mul"]


def test_f0549_an_ordinary_module_added_there_is_code(h, repo, lib_on_the_path_python3):
    tid = started(h, repo)
    write(repo, {"lib/calcpkg/calc.py": CALC + "\n\ndef square(a):\n    return mul(a, a)\n", "lib/helpers_new.py": "X = 1\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and "lib/helpers_new.py" not in rec["pass_to_pass"]["protected_changed"], rec
