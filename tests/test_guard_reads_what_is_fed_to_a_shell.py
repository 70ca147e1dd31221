"""What echo or printf prints into a shell is a command line the shell runs: judged as `bash -c` would
be, whatever reads the line (bashlex, the plain reader, or the fallback reader where bashlex gives up),
however printf builds it (its format, its `%s` arguments, escapes), and whatever stands before the shell
on the right of the pipe (sudo, env, nice, timeout, `bash /dev/stdin`). #28's task F-0027, F-0031, F-0032."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

FALLBACK = ["[[ -d . ]]; echo git commit --no-verify -m x | bash",
            "echo git commit --no-verify -m x | bash; case a in a) ;; esac",
            "echo 'git push --no-verify' | sh; echo $((1+1))"]
PRINTF = ["printf 'git commit --no-verify -m %s' x | bash", "printf '%s --no-verify -m x' 'git commit' | bash",
          "printf 'git commit -%s -m x' n | bash", "printf 'git commit \\055\\055no-verify -m x' | bash",
          "echo -e 'git commit \\x2d-no-verify -m x' | bash"]
PREFIXED = [f"echo git commit --no-verify -m x | {sh}" for sh in
            ("sudo bash", "env bash", "nice bash", "command bash", "timeout 9 sh", "bash /dev/stdin", "bash -s")]
ALLOWED = ["echo hello | bash", "printf '%s\\n' 'git status' | bash", "echo git commit --no-verify | cat",
           "echo 'git commit -n' > notes.txt", "printf 'git commit -%s' n | tee out.txt",
           "[[ -d . ]]; echo git status | bash", "echo x | bash -c 'cat'"]


@pytest.mark.parametrize("command", FALLBACK)
def test_a_line_bashlex_gives_up_on_is_still_read_for_what_it_feeds_a_shell(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", PRINTF)
def test_what_printf_and_echo_e_print_is_what_is_judged(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", PREFIXED)
def test_a_shell_behind_a_prefix_reads_what_it_is_fed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_what_a_shell_is_fed_that_bypasses_nothing_is_allowed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command
