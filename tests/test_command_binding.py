"""What a configured command runs is bound: the tree cannot supply its own runner, a string is never
split into arguments that mean something else, and what decides pass or fail is policy."""

from __future__ import annotations

import os

import pytest
import yaml

from support.cli import validate_staged
from support.flows import proposal, propose
from support.gitrepo import commit_all_ok
from support.paths import PY
from support.records import record, set_config, tdir

SHADOW = {"unittest/__init__.py": "", "unittest/__main__.py": "raise SystemExit(0)\n"}


def write(repo, files):
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)


def test_a_module_the_tree_shadows_is_refused_and_nothing_recorded(h, repo, task):
    write(repo, SHADOW)
    r = h("evidence", "unit_test", "--", PY, "-m", "unittest")
    assert r.code == 1, r.text
    assert "`-m unittest` would import unittest/__init__.py from the source tree" in r.err
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


@pytest.mark.parametrize("flags", [("-I",), ("-P",)])
def test_python_flags_that_keep_the_working_directory_off_sys_path_are_allowed(h, repo, task, flags):
    write(repo, SHADOW)
    r = h("evidence", "unit_test", "--", PY, *flags, "-m", "unittest", "discover", "-s", "nowhere_at_all")
    assert "would import" not in r.err, r.err
    assert record(repo, task, "unit_test")["program"]


def test_a_shadowing_module_git_ignores_is_not_source_and_is_allowed(h, repo, task):
    write(repo, {**SHADOW, ".gitignore": "unittest/\n"})
    r = h("evidence", "unit_test", "--", PY, "-m", "unittest")
    assert "would import" not in r.err and r.code == 0, r.err


def test_a_program_found_on_a_path_entry_inside_the_tree_is_refused(h, repo, task, monkeypatch):
    write(repo, {"bin/pytest": "#!/bin/sh\nexit 0\n"})
    os.chmod(repo / "bin/pytest", 0o755)
    monkeypatch.setenv("PATH", f"{repo / 'bin'}{os.pathsep}{os.environ['PATH']}")
    r = h("evidence", "unit_test", "--", "pytest")
    assert r.code == 1 and "`pytest` is found on PATH at bin/pytest, a file of the source tree" in r.err, r.err


def test_a_tool_in_an_ignored_folder_of_the_repository_is_allowed(h, repo, task, monkeypatch):
    write(repo, {"tools/bin/check": "#!/bin/sh\nexit 0\n", ".gitignore": "tools/\n"})
    os.chmod(repo / "tools/bin/check", 0o755)
    monkeypatch.setenv("PATH", f"{repo / 'tools/bin'}{os.pathsep}{os.environ['PATH']}")
    r = h("evidence", "unit_test", "--", "check")
    assert r.code == 0, r.err
    assert record(repo, task, "unit_test")["program"].endswith("tools/bin/check")


def test_a_script_named_by_its_path_is_allowed_it_is_protected_instead(h, repo, task):
    write(repo, {"scripts/test.sh": "exit 0\n"})
    assert h("evidence", "unit_test", "--", "bash", "scripts/test.sh").code == 0


@pytest.mark.parametrize("command", ["pytest -q && echo ok", "pytest | tee log.txt", "pytest > out.txt",
                                     "echo $HOME", "pytest; true"])
def test_a_string_command_with_shell_syntax_and_no_shell_is_refused(h, repo, task, command):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: {command!r}
    """)
    r = h("status")
    assert r.code == 2 and "has shell syntax" in r.err and "shell: true" in r.err, r.err


@pytest.mark.parametrize("command", ["python -m pytest -q", "pytest -k 'a and b'", "pytest -k 'x|y'",
                                     "grep -E 'x$' f"])
def test_a_string_command_whose_split_means_what_it_says_is_accepted(h, repo, task, command):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: {command!r}
    """)
    assert h("status").code == 0


def test_the_same_string_runs_in_a_shell_when_config_says_so(h, repo, task):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: "{PY} -c 'pass' && echo shell-ran"
            shell: true
    """)
    r = h("evidence", "unit_test")
    assert r.code == 0 and "shell-ran" in r.out
    assert record(repo, task, "unit_test")["shell"] is True


def test_a_reviewer_reproducer_string_with_shell_syntax_is_refused_when_proposed(h, repo, task, tmp_path):
    doc = proposal(recommended_reproducer={"type": "unit_test", "description": "d",
                                           "command": f"{PY} -c 'import app' && test -e marker"})
    r = propose(h, tmp_path, doc)
    assert r.code == 2 and "has shell syntax ('&&')" in r.err and '["sh", "-c"' in r.err, r.err


def test_the_same_reproducer_as_a_list_through_sh_is_accepted(h, repo, task, tmp_path):
    doc = proposal(recommended_reproducer={"type": "unit_test", "description": "d",
                                           "command": ["sh", "-c", f"{PY} -c 'import app' && test -e marker"]})
    assert propose(h, tmp_path, doc).code == 0


# -- what decides pass or fail is policy -------------------------------------------------------------

def configured(repo, unit_test: dict) -> None:
    path = repo / ".harness/config.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["evidence"] = {"unit_test": unit_test}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


JUNIT = {"command": [PY, "-m", "pytest", "--junitxml=r.xml"], "junit": "r.xml"}


@pytest.mark.parametrize("change, why", [
    ({"command": JUNIT["command"]}, "evidence.unit_test.junit 'r.xml' → None"),
    ({**JUNIT, "junit": "other.xml"}, "evidence.unit_test.junit 'r.xml' → 'other.xml'"),
])
def test_dropping_or_moving_the_junit_report_needs_approval(h, repo, task, change, why):
    configured(repo, JUNIT)
    commit_all_ok(repo, "configured")
    configured(repo, change)
    r = validate_staged(repo)
    assert r.returncode == 1 and why in r.stderr, r.stderr


def test_adding_a_junit_report_only_tightens(h, repo, task):
    configured(repo, {"command": JUNIT["command"]})
    commit_all_ok(repo, "configured")
    configured(repo, JUNIT)
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_turning_a_shell_on_or_off_needs_approval(h, repo, task):
    configured(repo, {"command": "make test"})
    commit_all_ok(repo, "configured")
    configured(repo, {"command": "make test", "shell": True})
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence.unit_test.shell False → True" in r.stderr, r.stderr


# -- found by an adversarial review (F-0006, F-0007 of TASK-20261203-1dafdf) -----------------------------

def test_a_compiled_module_the_tree_shadows_is_refused(h, repo, task):
    import py_compile

    (repo / "unittest_src.py").write_text("raise SystemExit(0)\n")
    py_compile.compile(str(repo / "unittest_src.py"), cfile=str(repo / "unittest.pyc"))
    (repo / "unittest_src.py").unlink()
    r = h("evidence", "unit_test", "--", PY, "-m", "unittest")
    assert r.code == 1 and "would import unittest.pyc from the source tree" in r.err, r.err


@pytest.mark.parametrize("argv", [
    (PY, "-Bm", "unittest"), (PY, "-B", "-munittest"), ("env", PY, "-m", "unittest"),
    ("coverage", "run", "-m", "unittest"), (PY, "-W", "ignore", "-m", "unittest"),
])
def test_bundled_flags_and_wrappers_do_not_hide_a_shadowed_module(h, repo, task, argv):
    write(repo, SHADOW)
    r = h("evidence", "unit_test", "--", *argv)
    assert r.code == 1 and "would import unittest/__init__.py" in r.err, (argv, r.err)


WRAPPED = [["env", "-S", "pytest -q tests"], ["env", "--split-string=pytest -q"], ["env", "-i", "-S", "pytest -q"],
           ["flock", "/tmp/ci.lock", "pytest", "-q"], ["dotenv", "run", "--", "pytest"], ["direnv", "exec", ".", "pytest"],
           ["nix", "develop", "-c", "pytest"], ["sudo", "-E", "pytest"], ["uv", "run", "--only-group", "test", "pytest"]]


@pytest.mark.parametrize("argv", WRAPPED, ids=lambda argv: " ".join(argv[:2]))
def test_a_runner_on_path_in_the_tree_that_any_wrapper_starts_is_refused(tmp_path, argv):
    # Read 138's F-0489 (`env -S` hid its command in one word) and F-0490 (a wrapper the harness does not list):
    # every word of the command that PATH finds in the tree is a runner the tree would choose.
    from harness.evidence.record import shadowed

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/pytest").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(tmp_path / "bin/pytest", 0o755)
    environ = {"PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.defpath}"}
    why = shadowed(argv, tmp_path, environ, lambda rel: False)
    assert why is not None and "is found on PATH at bin/pytest" in why, why
    assert shadowed(argv, tmp_path, environ, lambda rel: rel.startswith("bin/")) is None  # an ignored folder: no source
    assert shadowed(argv, tmp_path, {"PATH": os.defpath}, lambda rel: False) is None  # the system's pytest: none


def test_f0496_a_path_the_command_sets_itself_is_where_its_runner_is_looked_up(tmp_path):
    # Read 140's F-0496: `env PATH=bin:… pytest` was looked up on the PATH outside the command.
    from harness.evidence.record import shadowed

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/pytest").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(tmp_path / "bin/pytest", 0o755)
    for argv in (["env", f"PATH=bin{os.pathsep}{os.defpath}", "pytest"], ["env", f"PATH={tmp_path / 'bin'}", "pytest"],
                 ["env", "-S", f"PATH=bin{os.pathsep}{os.defpath} pytest -q"]):
        why = shadowed(argv, tmp_path, {"PATH": os.defpath}, lambda rel: False)
        assert why is not None and "bin/pytest" in why, (argv, why)


def test_f0497_a_module_python_runs_with_dash_m_is_no_program_looked_up(tmp_path):
    # Read 140's F-0497: `python -I -m pytest` was refused for a committed bin/pytest on PATH; -m names a module.
    from harness.evidence.record import shadowed

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/pytest").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(tmp_path / "bin/pytest", 0o755)
    environ = {"PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.defpath}"}
    assert shadowed([PY, "-I", "-m", "pytest", "-q"], tmp_path, environ, lambda rel: False) is None


def test_f0498_env_s_escapes_separate_words_as_env_does(tmp_path):
    # Read 140's F-0498: GNU env reads `\\_` as a separator and `\\c` as the end of its string.
    from harness.core.test_verdict import unwrapped

    assert unwrapped(["env", "-S", "pytest\\_-q\\_tests\\c ignored"]) == ["pytest", "-q", "tests"]

