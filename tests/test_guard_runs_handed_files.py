"""What a find, an xargs, a shell's positional words and `source` hand a command, judged (an eleventh
adversarial read, #28's task F-0080..F-0082, F-0085)."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

TOP = Where("/repo", "/repo", "/home/u")
SUB = Where("/repo", "/repo/src", "/home/u")
TID = "TASK-20261204-1ca7df"


def _denied(command: str, where: Where = TOP) -> bool:
    return check_shell(command, where) is not None


@pytest.mark.parametrize(("command", "where"), [
    ("find . -path './.harness/tasks/TASK-*/events.jsonl' -exec sed -i 1d {} +", TOP),
    (f"find . -path '*/{TID}/*' -name events.jsonl -exec truncate -s 0 {{}} +", TOP),
    ("find . -name events.jsonl -exec sh -c 'echo x >> \"$0\"' {} \\;", TOP),
    ("find . -name events.jsonl -execdir bash -c 'sed -i 1d \"$@\"' _ {} +", TOP),
    ("find . -name events.jsonl -exec sh -c 'for f; do echo x >> \"$f\"; done' sh {} +", TOP),
    ("find -L .. -name events.jsonl -exec truncate -s 0 {} +", SUB), ("find -O3 .. -name events.jsonl -exec truncate -s 0 {} +", SUB),
    ("find -files0-from list -exec truncate -s 0 {} +", SUB)])
def test_find_runs_reach_the_files_it_may_find(command, where):
    """#28's task F-0080: tests on a real task's name, `sh -c` positional words, find's leading options."""
    assert _denied(command, where), command


@pytest.mark.parametrize("command", ["find . -name events.jsonl | xargs sed -i 1d", "find . -name events.jsonl -print0 | xargs -0 -n1 sed -i 1d",
                                     "find .harness -type f | xargs truncate -s 0", "find . -name events.jsonl | xargs -I% sh -c 'echo x >> %'"])
def test_what_find_pipes_to_xargs_is_judged(command):
    """#28's task F-0081."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["find . -name '*.py' | xargs sed -i s/a/b/", "find src -type f | xargs chmod 644",
                                     "find . -name '*.jsonl' | xargs wc -l", "sh -c 'echo \"$0\"' hello"])
def test_ordinary_pipes_to_xargs_stay_allowed(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ['ln -s "$(pwd)" r && echo x >> r/.harness/tasks/T/events.jsonl',
                                     'ln -s "${PWD%/}" r', "ln -s `pwd` r", "ln -s ../rep? r", "ln -s ../r*o r"])
def test_a_link_to_the_top_spelled_by_pwd_is_refused(command):
    """#28's task F-0082."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [". /dev/stdin <<< 'echo x >> .harness/tasks/T/events.jsonl'",
                                     "source /dev/stdin <<X\ngit commit -n -m x\nX",
                                     "echo 'git commit -n -m x' | source /dev/stdin", "bash <(echo 'git commit -n -m x')",
                                     "source <(echo 'echo x >> .harness/tasks/T/events.jsonl')",
                                     "eval \"$(echo 'git commit -n -m x')\""])
def test_source_of_standard_input_is_judged_as_a_shell_reading_it(command):
    """#28's task F-0085."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["cd .harness && bash <<X\necho x >> tasks/T/events.jsonl\nX",
                                     "cd .harness; sh <<'EOF'\ntruncate -s 0 tasks/T/events.jsonl\nEOF"])
def test_a_here_document_fed_to_a_shell_runs_where_the_shell_runs(command):
    """#28's task F-0077: the body runs when its shell does, after the line's cd."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["f(){ echo x >> tasks/T/events.jsonl; }; cd .harness; f",
                                     "function f { truncate -s 0 tasks/T/events.jsonl; }\ncd .harness\nf",
                                     "trap 'echo x >> tasks/T/events.jsonl' EXIT; cd .harness",
                                     "for i in 1; do echo x >> tasks/T/events.jsonl; cd .harness; done"])
def test_a_body_is_judged_in_every_folder_the_line_reaches(command):
    """#28's task F-0075: a function's body, a trap's action or a loop's body runs when it is called or
    comes round again, after a later cd."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["shopt -s expand_aliases\nalias w='tee -a'\necho x | w .harness/tasks/T/events.jsonl",
                                     "shopt -s expand_aliases\nalias c='cd .harness'\nc\necho x >> tasks/T/events.jsonl",
                                     "shopt -s expand_aliases\nalias g='git commit --no-verify -q'\ng -m skipped"])
def test_an_alias_defined_on_the_line_is_judged_as_it_expands(command):
    """#28's task F-0076."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["alias ll='ls -la'; ll", "f(){ make test; }; cd src; f", "for f in *.py; do python -m py_compile $f; done"])
def test_ordinary_functions_aliases_and_loops_stay_allowed(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["git ls-files -z '*.jsonl' | xargs -0 sed -i 1d", "git ls-files | xargs truncate -s 0",
                                     "git ls-files .harness | xargs sed -i 1d"])
def test_what_git_ls_files_pipes_to_xargs_is_judged(command):
    """#28's task F-0081: git's list of tracked files holds the record's."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["git ls-files '*.py' | xargs sed -i s/a/b/", "git ls-files src | xargs wc -l"])
def test_ordinary_git_ls_files_pipes_stay_allowed(command):
    assert not _denied(command), command


def test_a_link_to_the_folder_above_spelled_with_dirname_is_refused():
    """#28's task F-0082: `$(dirname "$PWD")` is the folder above, which holds the repository."""
    assert _denied('ln -s "$(dirname "$PWD")" up && echo x >> up/repo/.harness/tasks/T/events.jsonl')


@pytest.mark.parametrize("command", ["eval \"$(printf 'git commit \\055n -m x')\"", "bash <(printf 'git commit \\055n -m x')",
                                     "bash <(echo -e 'git commit \\x2dn -m x')", "eval \"$(echo -e 'git commit \\x2dn')\""])
def test_what_eval_or_a_shell_reads_from_printf_or_echo_is_judged_with_its_escapes_decoded(command):
    """F-0231: the line a shell or eval runs from printf/echo is judged as printed, escapes decoded and not."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["eval \"$(printf 'echo %s' hello)\"", "bash <(echo 'echo \\x2d')",
                                     "eval \"$(echo 'git status; git log -1')\"", "source <(printf 'export A=1\\n')"])
def test_what_eval_or_a_shell_reads_that_bypasses_nothing_stays_allowed(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["eval \"$(printf 'git commit \\u002dn -m x')\"", "printf 'git commit \\u002dn -m x' | bash",
                                     "echo -e 'git commit \\u002dn -m x' | bash", "echo -e 'git push \\U0000002d-no-verify' | sh",
                                     "bash <(printf 'git commit \\u2dn -m x')", "eval \"$(echo -e 'git commit \\U2dn')\""])
def test_what_eval_or_a_shell_reads_is_judged_with_bash_s_unicode_escapes_decoded(command):
    """F-0249: bash's printf and `echo -e` decode `\\uHHHH` and `\\UHHHHHHHH` (`\\u002d` is `-`)."""
    denial = check_shell(command, TOP)
    assert denial is not None and denial.rule == "no-verify", (command, denial)


@pytest.mark.parametrize("command", ["printf 'git commit \\q-n' | bash", "eval \"$(printf 'git commit -m x \\c')\"",
                                     "echo -e 'git status \\u' | bash", "bash <(printf 'git commit \\x')"])
def test_a_printed_line_with_an_escape_the_guard_cannot_decode_is_unresolved(command):
    """F-0249: an escape the guard does not know is not read as written: what it prints is not worked out."""
    denial = check_shell(command, TOP)
    assert denial is not None and denial.rule == "unresolved", (command, denial)


@pytest.mark.parametrize("command", ["printf 'echo caf\\u00e9\\n' | bash", "eval \"$(echo -e 'echo \\u00e9t\\u00e9')\"",
                                     "printf '%s\\n' 'echo C:\\path' | bash", "printf 'echo 100%%\\n' | sh",
                                     "eval \"$(printf 'echo \\U0001F600')\""])
def test_what_eval_or_a_shell_reads_with_unicode_escapes_that_bypass_nothing_stays_allowed(command):
    assert not _denied(command), command
