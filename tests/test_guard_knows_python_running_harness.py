"""However Python is asked to run the harness — interpreter options before `-m`, combined flags, the
package's `__main__` named outright — the guard judges the harness command it runs; a Python that runs
another module, or a script, is judged as before."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

HERE = Where("/repo", "/repo")

DENIED = [
    ("python3 -I -m harness uninstall", "uninstall"),
    ("python3 -P -m harness uninstall", "uninstall"),
    ("python3 -Pm harness uninstall", "uninstall"),
    ("python3 -Im harness approve gate-change", "approve"),
    ("python3 -E -s -m harness uninstall", "uninstall"),
    ("python3 -X utf8 -m harness uninstall", "uninstall"),
    ("python3 -W ignore -m harness uninstall", "uninstall"),
    ("python3 -mharness uninstall", "uninstall"),
    ("python3 -m harness.__main__ uninstall", "uninstall"),
    ("/usr/bin/python3.11 -u -m harness agent uninstall --host claude", "uninstall"),
]

ALLOWED = [
    "python3 -I -m harness status",
    "python3 -P -m harness hook run pre-commit",
    "python3 -m pytest -q tests",
    "python3 -I -m pytest harness",          # another module, with `harness` as its argument
    "python3 -c 'print(1)' -m harness uninstall",  # -c ends the options: the rest is sys.argv
    "python3 script.py -m harness uninstall",      # a script: its own arguments
    "python3 -m harnessx uninstall",
]


@pytest.mark.parametrize("command,rule", DENIED)
def test_the_harness_run_through_python_is_judged_as_the_harness(command, rule):
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == rule, command


@pytest.mark.parametrize("command", ALLOWED)
def test_python_running_something_else_is_not_taken_for_the_harness(command):
    assert check_shell(command, HERE) is None, command
