"""A harness command the guard denies stays denied however it is written: a help word that is an option's
value, the command an evidence run starts, a subcommand the guard cannot read, a module runner or a script
path in front of it, and PYTHONPATH set on a git command whose hooks would import the harness."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

HERE = Where("/repo", "/repo")

DENIED = [
    "harness approve gate-change --key -h",                   # -h is the key's path, not a request for help
    "harness approve gate-change --key --help",
    "harness evidence unit_test -- harness uninstall",
    "harness evidence unit_test -- git commit --no-verify -m x",
    "harness evidence lint --shell -- 'git commit -n -m x'",
    "python3 -m harness evidence custom -- harness approve gate-change",
    "harness ${X:-uninstall}",
    "python3 -m harness $SUB",
    "harness agent $WHAT --host claude",
    "echo uninstall | xargs harness",
    "echo --no-verify | xargs git commit -m x",
    "python3 -m runpy harness uninstall",
    "python3 -m cProfile -m harness uninstall",
    "python3 -m profile -o /tmp/p -m harness uninstall",
    "python3 -m pdb -m harness uninstall",
    "python3 -m trace --trace --module harness uninstall",
    "python3 .venv/bin/harness uninstall",
    "python3 /src/harness/__main__.py uninstall",
    "PYTHONPATH=. git commit -m x",
    "PYTHONHOME=/tmp/py git push",
]

ALLOWED = [
    "harness approve --help",
    "harness approve gate-change -h",
    "harness evidence unit_test -- pytest -q tests",
    "harness evidence unit_test",
    "harness evidence unit_test -- pytest $ARGS",
    "harness status --task $T",
    "python3 -m runpy mytool run",
    "python3 -m cProfile -m pytest -q",
    "python3 tools/harness_report.py uninstall",
    "PYTHONPATH=src pytest -q",
    "ls | xargs grep foo",
]


@pytest.mark.parametrize("command", DENIED)
def test_denied_however_written(command):
    assert check_shell(command, HERE) is not None, command


@pytest.mark.parametrize("command", ALLOWED)
def test_the_honest_forms_stay_allowed(command):
    assert check_shell(command, HERE) is None, command


INLINE_DENIED = [
    "python3 -c 'import runpy; runpy.run_module(\"harness\", run_name=\"__main__\")' uninstall",
    "python3 -Ic 'import runpy; runpy.run_module(\"harness\")' uninstall",
    "python3 -c'from harness.cli.launch import entry; entry()' approve gate-change",
    "python3 -X utf8 -c 'import runpy; runpy.run_module(\"harness\")' uninstall",
]
INLINE_ALLOWED = [
    "python3 -c 'import harness; print(harness.__version__)'",
    "python3 -c 'print(1)' uninstall",
    "python3 -c 'import harness' status",
]


def test_inline_code_that_names_the_harness_is_judged_by_the_words_it_is_given():
    """#28's F-0020: `python3 -c CODE ARGS` running the harness's command line is judged as `harness ARGS`."""
    for command in INLINE_DENIED:
        assert check_shell(command, HERE) is not None, command
    for command in INLINE_ALLOWED:
        assert check_shell(command, HERE) is None, command
