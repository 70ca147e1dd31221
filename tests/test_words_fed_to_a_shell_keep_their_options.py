"""A command line fed to a shell on its standard input (`echo … | bash`) is judged as the shell runs it:
echo reads only its leading words as options, so an option word later in the line is the command's
own (#28's F-0021)."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

HERE = Where("/repo", "/repo")


@pytest.mark.parametrize("command", ["echo git commit --no-verify -m x | bash",
                                     "echo git commit -n -m x | bash",
                                     "echo -n git push --no-verify | sh",
                                     "echo -e git commit --no-verify -m x | bash -s"])
def test_an_option_word_the_shell_runs_is_judged(command):
    assert check_shell(command, HERE) is not None, command


@pytest.mark.parametrize("command", ["echo ls -la | bash", "echo -n pytest -q | sh"])
def test_harmless_lines_fed_to_a_shell_stay_allowed(command):
    assert check_shell(command, HERE) is None, command
