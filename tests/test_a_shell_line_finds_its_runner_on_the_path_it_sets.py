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
    ("a~/b", "a~/b"), ("$HOME$PATH", "/h/usr/bin"),
])
def test_a_path_value_is_expanded_as_the_shell_expands_an_assignment(value, want):
    from harness.evidence.shell_paths import _Reading

    assert want in _Reading({"PATH": "/usr/bin", "HOME": "/h"}, "/w", set(), moves=False).readings(value)


@pytest.mark.parametrize("value", ["$(pwd)", "${X:-a}", "`pwd`", "$1", "~user/bin", "$$", "${#X}", "$NOPE/bin"])
def test_a_path_value_the_shell_decides_is_unknown(value):
    from harness.evidence.shell_paths import UnknownPath, _Reading

    with pytest.raises(UnknownPath):
        _Reading({"PATH": "/usr/bin", "HOME": "/h"}, "/w", set(), moves=False).readings(value)


def test_tilde_without_a_home_is_unknown():
    from harness.evidence.shell_paths import UnknownPath, _Reading

    with pytest.raises(UnknownPath):
        _Reading({"PATH": "/usr/bin"}, "/w", set(), moves=False).readings("~/bin")


def test_every_command_and_every_assigned_path_of_a_line_is_listed():
    from harness.evidence.shell_paths import line_runners

    commands, paths = line_runners("PATH=a; export PATH=b:$PATH && echo x | env PATH=/c timeout 5 run -q",
                                   {"PATH": "/p"}, "/w")
    assert ["run", "-q"] in commands and ["echo", "x"] in commands
    assert {"a", "b:/p", "b:$PATH", "/c"} == set(paths)
    with pytest.raises(HarnessError, match="changes folder"):  # where `a` is depends on the cd
        line_runners("cd x && PATH=a run", {"PATH": "/p"}, "/w")
    assert line_runners("cd x && PATH=/a run", {"PATH": "/p"}, "/w")[1] == ["/a"]


def test_a_line_no_parser_reads_is_an_error_not_a_pass():
    from harness.evidence.shell_paths import line_runners

    with pytest.raises(HarnessError):
        line_runners("pytest 'unclosed", {"PATH": "/p"}, "/w")


# -- read 143 of that fix ------------------------------------------------------------------------------------------

OTHER_WRITES = ['for PATH in "$PWD/bin"; do pytest -q; done', "read PATH <<END\nbin\nEND\npytest -q",
                "bash -c 'printf -v PATH %s \"$PWD/bin\"; pytest -q'", "bash -c 'PATH=/nonexistent; PATH+=:$PWD/bin; pytest -q'",
                "declare -n p=PATH; p=bin; pytest -q"]
OWN_VARIABLES = ["true; D=bin; PATH=$D:$PATH pytest -q", 'true; D=$PWD/bin; export PATH="$D:$PATH"; pytest -q',
                 "D=x true; PATH=$PWD/bin$D:$PATH pytest -q"]
AFTER_CD = ["cd bin && PATH=.:$PATH pytest -q", "cd bin; PATH=$PWD:$PATH pytest -q", 'cd bin && export PATH=":$PATH" && pytest -q']


@pytest.mark.parametrize("line", OTHER_WRITES + OWN_VARIABLES + AFTER_CD)
def test_f0506_f0507_f0508_a_path_set_otherwise_by_the_line_s_own_variables_or_after_a_cd_is_never_passed(h, repo, task,
                                                                                                         line):
    # Read 143: `for PATH in`, `read PATH`, `printf -v PATH`, `PATH+=` (F-0506); a variable the line sets (F-0507);
    # a cd before the lookup (F-0508) each ran the tree's bin/pytest.
    plant(repo)
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and (TREE_RUNNER in r.err or "which only the shell can compute" in r.err
                            or "sets it in a way the harness does not follow" in r.err), (line, r.text)
    assert "planted runner ran" not in r.out


@pytest.mark.parametrize("line", ["PATH='$PWD/bin':$PATH pytest -q", "PATH=\\$PWD/bin:$PATH pytest -q",
                                  'PATH="~/bin:$PATH" pytest -q', "PATH='~'/bin:$PATH pytest -q"])
def test_f0509_a_quoted_dollar_or_tilde_is_read_literally_too(h, repo, task, line):
    # Read 143's F-0509: the shell keeps a quoted `$PWD` or `~` as text, so the tree's `$PWD/bin` and `~/bin` folders
    # are on the PATH; the check had expanded them and looked elsewhere.
    plant(repo, "$PWD/bin/pytest")
    plant(repo, "~/bin/pytest")
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and "is found on PATH at" in r.err and "/bin/pytest, a file of the source tree" in r.err, r.text
    assert "planted runner ran" not in r.out


@pytest.mark.parametrize("line", ['PATH="$PWD/tools/bin:$PATH"; export PATH; check', 'export PATH="$PWD/tools/bin:$PATH" && check',
                                  'PATH="{tools}:$PATH" PYTHONPATH=src check', 'LD_LIBRARY_PATH=/x PATH="{tools}:$PATH" check'])
def test_what_a_careless_guard_would_refuse_still_runs(h, repo, task, line):
    plant(repo, "tools/bin/check")
    (repo / ".gitignore").write_text("tools/\n")
    r = h("evidence", "unit_test", "--shell", "--", line.format(tools=repo / "tools/bin"))
    assert r.code == 0 and "planted runner ran" in r.out, (line, r.text)


def test_each_expansion_of_a_value_is_read_both_ways():
    from harness.evidence.shell_paths import _Reading

    reading = _Reading({"PATH": "/usr/bin", "HOME": "/h"}, "/w", {"PATH"}, moves=False)
    assert sorted(reading.readings("$PWD/bin:$PATH")) == sorted(
        ["/w/bin:/usr/bin", "/w/bin:$PATH", "$PWD/bin:/usr/bin", "$PWD/bin:$PATH"])
    assert sorted(reading.readings("~/b")) == ["/h/b", "~/b"]
    with pytest.raises(HarnessError):
        reading.readings(":".join(f"$PATH{i}" for i in range(7)))


# -- read 144 ------------------------------------------------------------------------------------------------------

HOME_SET = ["HOME=$PWD; PATH=~/bin:$PATH pytest -q", "HOME=$PWD PATH=~/bin:$PATH pytest -q",
            "export HOME=$PWD; export PATH=~/bin:$PATH; pytest -q", "bash -c 'HOME=$PWD; PATH=~/bin:$PATH pytest -q'"]
QUOTED_NAME = ['read P""ATH <<END\nbin\nEND\npytest -q', "read P\\ATH <<END\nbin\nEND\npytest -q",
               "bash -c 'printf -v PA\"\"TH %s \"$PWD/bin\"; pytest -q'", "bash -c 'declare -n r=PA\"\"TH; r=$PWD/bin; pytest -q'"]
BRACES = ["bash -c 'export PATH={/nonexistent,$PWD/bin}:$PATH; pytest -q'",
          "bash -c 'declare -x PATH=/nonexistent{,:$PWD/bin}; pytest -q'"]


@pytest.mark.parametrize("line", HOME_SET + QUOTED_NAME + BRACES)
def test_f0510_f0511_f0512_a_home_the_line_sets_a_quoted_path_name_and_braces_are_never_passed(h, repo, task, line):
    # Read 144: `~` read with the environment's HOME (F-0510), PATH spelt through quotes (F-0511), bash's brace
    # expansion in an export argument (F-0512) each ran the tree's bin/pytest.
    plant(repo)
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and (TREE_RUNNER in r.err or "which only the shell can compute" in r.err
                            or "sets it in a way the harness does not follow" in r.err), (line, r.text)
    assert "planted runner ran" not in r.out


@pytest.mark.parametrize("line", ['export H""OME=$PWD; PATH=~/bin:$PATH pytest -q', "export H\\OME=$PWD; PATH=~/bin:$PATH pytest -q",
                                  'export P""WD=$PWD/bin; PATH=$PWD:$PATH pytest -q'])
def test_f0514_home_or_pwd_set_through_a_quoted_name_is_the_line_s_own(h, repo, task, line):
    # Read 145's F-0514: the names the line sets were read from the text with its quotes, which the shell takes out.
    plant(repo)
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and "which only the shell can compute" in r.err, (line, r.text)
    assert "planted runner ran" not in r.out
