"""A shell line's runner is looked up where the shell will find it: every command the line runs, on every PATH it
assigns, its `$PWD`, `$PATH`, `${NAME}` and `~` expanded. Until now only the first command's plain words were
checked, so `PATH="$PWD/bin:$PATH" pytest` ran a committed bin/pytest as the suite's runner (read 140's
suggestion, named as a limit in docs/threat-model.md)."""

from __future__ import annotations

import os

import pytest

from harness.errors import HarnessError
from support.paths import PY
from support.records import record, tdir

TREE_RUNNER = "`pytest` is found on PATH at bin/pytest, a file of the source tree"


def plant(repo, rel="bin/pytest"):
    (repo / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo / rel).write_text("#!/bin/sh\necho 'planted runner ran'\nexit 0\n")
    os.chmod(repo / rel, 0o755)


SETS_PATH = ['PATH="$PWD/bin:$PATH" pytest -q', "PATH=${PWD}/bin:$PATH pytest -q", 'export PATH="$PWD/bin:$PATH"; pytest -q',
             "export PATH=bin:$PATH && pytest -q", "PATH=bin:$PATH; export PATH; pytest -q",
             'declare -x PATH="$PWD/bin:$PATH"; pytest -q', 'timeout 60 env PATH="$PWD/bin:$PATH" pytest -q',
             "sh -c 'PATH=\"$PWD/bin:$PATH\" pytest -q'", 'for i in 1; do PATH="$PWD/bin:$PATH" pytest -q; done']


@pytest.mark.parametrize("line", SETS_PATH)
def test_a_runner_on_a_path_the_line_sets_inside_the_tree_is_refused(h, repo, task, line):
    plant(repo)
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and TREE_RUNNER in r.err, (line, r.text)
    assert "planted runner ran" not in r.out and not (tdir(repo, task) / "evidence/unit_test.json").exists()


@pytest.mark.parametrize("line", ["cd . && pytest -q", "true | pytest -q", "true; pytest -q", "true || pytest -q"])
def test_a_runner_a_later_command_of_the_line_finds_in_the_tree_is_refused(h, repo, task, monkeypatch, line):
    plant(repo)
    monkeypatch.setenv("PATH", f"{repo / 'bin'}{os.pathsep}{os.environ['PATH']}")
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and TREE_RUNNER in r.err, (line, r.text)


@pytest.mark.parametrize("line", ['PATH="$(pwd)/bin:$PATH" pytest -q', "PATH=${BIN:-bin}:$PATH pytest -q",
                                  "PATH=`pwd`/bin:$PATH pytest -q", 'export PATH="$1/bin"; pytest -q'])
def test_a_path_only_the_shell_can_compute_is_refused_not_guessed(h, repo, task, line):
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and "which only the shell can compute" in r.err, (line, r.text)
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


def test_an_ignored_tool_folder_on_a_path_the_line_sets_is_allowed(h, repo, task):
    plant(repo, "tools/bin/check")
    (repo / ".gitignore").write_text("tools/\n")
    r = h("evidence", "unit_test", "--shell", "--", 'PATH="$PWD/tools/bin:$PATH" check')
    assert r.code == 0 and "planted runner ran" in r.out, r.text
    assert record(repo, task, "unit_test")["shell"] is True


@pytest.mark.parametrize("line", ['PATH="$HOME/.local/bin:$PATH" {py} -c pass', 'export PATH="$PWD/bin:$PATH"; {py} -c pass',
                                  "cd . && {py} -c pass", 'PATH="$PWD/bin:$PATH" {py} -c "import sys" | cat'])
def test_a_line_whose_commands_the_tree_does_not_supply_runs(h, repo, task, line):
    plant(repo, "bin/unrelated")  # a program of the tree on the PATH, which the line never runs
    r = h("evidence", "unit_test", "--shell", "--", line.format(py=PY))
    assert r.code == 0, (line, r.text)


def test_the_configured_shell_line_is_checked_as_an_ad_hoc_one_is(h, repo, task):
    from support.records import set_config

    set_config(repo, """
        evidence:
          unit_test:
            command: 'PATH="$PWD/bin:$PATH" pytest -q'
            shell: true
    """)
    plant(repo)
    r = h("evidence", "unit_test")
    assert r.code == 1 and TREE_RUNNER in r.err, r.text


@pytest.mark.parametrize(("value", "want"), [
    ("$PWD/bin:$PATH", "/w/bin:/usr/bin"), ("${PWD}/bin", "/w/bin"), ("~/bin:~", "/h/bin:/h"),
    ("bin:$NOPE:x", "bin::x"), ("a~/b", "a~/b"), ("$HOME$PATH", "/h/usr/bin"),
])
def test_a_path_value_is_expanded_as_the_shell_expands_an_assignment(value, want):
    from harness.evidence.shell_paths import expanded

    assert expanded(value, {"PATH": "/usr/bin", "HOME": "/h"}, "/w") == want


@pytest.mark.parametrize("value", ["$(pwd)", "${X:-a}", "`pwd`", "$1", "~user/bin", "$$", "${#X}"])
def test_a_path_value_the_shell_decides_is_unknown(value):
    from harness.evidence.shell_paths import UnknownPath, expanded

    with pytest.raises(UnknownPath):
        expanded(value, {"PATH": "/usr/bin", "HOME": "/h"}, "/w")


def test_tilde_without_a_home_is_unknown():
    from harness.evidence.shell_paths import UnknownPath, expanded

    with pytest.raises(UnknownPath):
        expanded("~/bin", {"PATH": "/usr/bin"}, "/w")


def test_every_command_and_every_assigned_path_of_a_line_is_listed():
    from harness.evidence.shell_paths import line_runners

    commands, paths = line_runners("PATH=a; export PATH=b:$PATH && cd x | env PATH=c timeout 5 run -q",
                                   {"PATH": "/p"}, "/w")
    assert ["run", "-q"] in commands and ["cd", "x"] in commands
    assert paths == ["a", "b:/p", "c"]


def test_a_line_no_parser_reads_is_an_error_not_a_pass():
    from harness.evidence.shell_paths import line_runners

    with pytest.raises(HarnessError):
        line_runners("pytest 'unclosed", {"PATH": "/p"}, "/w")
