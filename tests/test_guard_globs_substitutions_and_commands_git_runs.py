"""What a shell line names beyond its plain words, as the guard reads it: glob options and extglob, mktemp
spelled otherwise, a loop's braces, descriptors spelled otherwise, `watch -n 1 -x`, grep's long options, a
prefix word redefined, a loop variable's letter as an option (a false denial), and the commands git runs from
its settings, filters and transports (#28's task F-0103..F-0112, F-0120..F-0130)."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

TOP = Where("/repo", "/repo", "/home/u")
LEDGER = ".harness/tasks/T/events.jsonl"


def _denied(command: str) -> bool:
    return check_shell(command, TOP) is not None


@pytest.mark.parametrize("command", ["shopt -s dotglob; cd */tasks && sed -i 1d T/events.jsonl",
                                     "GLOBIGNORE=x; cd */tasks && sed -i 1d T/events.jsonl",
                                     "shopt -s nocaseglob; cd .HARNES? && sed -i 1d tasks/T/events.jsonl",
                                     "shopt -s dotglob; sed -i 1d */tasks/T/events.jsonl",
                                     "shopt -s dotglob globstar; sed -i 1d **/events.jsonl"])
def test_a_glob_is_matched_as_the_line_s_glob_options_say(command):
    """#28's task F-0103."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["shopt -s extglob\nsed -i 1d @(.harness)/tasks/T/events.jsonl",
                                     "shopt -s extglob\ncd @(.harness) && sed -i 1d tasks/T/events.jsonl",
                                     "shopt -s extglob\ncd .harnes+(s) && sed -i 1d tasks/T/events.jsonl",
                                     "sed -i 1d .harness/tasks/T/@(events).jsonl"])
def test_an_extglob_pattern_may_name_the_record(command):
    """#28's task F-0104."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["rm -rf */node_modules", "for d in packages/*; do (cd $d && npm test); done",
                                     "shopt -s globstar; ls **/*.py", "shopt -s extglob\nrm -f !(*.py)"])
def test_ordinary_globs_stay_allowed(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ['cd "$(mktemp -d >/dev/null; echo .harness)" && sed -i 1d tasks/T/events.jsonl',
                                     'tmp=$(mktemp -d >/dev/null; echo .harness) && cd "$tmp" && sed -i 1d tasks/T/events.jsonl',
                                     'cd "$(mktemp -du; echo .harness)" && sed -i 1d tasks/T/events.jsonl'])
def test_a_substitution_that_runs_more_than_mktemp_is_unknown(command):
    """#28's task F-0105."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ['cd "$(mktemp -d --tmp=.harness)" && sed -i 1d ../tasks/T/events.jsonl',
                                     'cd "$(mktemp --dir -p .harness)" && sed -i 1d ../tasks/T/events.jsonl',
                                     'cd "$(mktemp --di --tmpd=.harness)" && sed -i 1d ../tasks/T/events.jsonl'])
def test_mktemp_s_abbreviated_long_options_are_read(command):
    """#28's task F-0106."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["for d in .harnes{s,x}; do cd \"$d\" && sed -i 1d tasks/T/events.jsonl; done",
                                     "for d in {.harness,src}; do (cd \"$d\" && sed -i 1d tasks/T/events.jsonl); done"])
def test_a_loop_s_words_are_brace_expanded(command):
    """#28's task F-0107."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["cd //dev/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl",
                                     "sed -i 1d //dev/fd/3/tasks/T/events.jsonl 3<.harness",
                                     "exec 3<.harness; cd /proc/self/task/*/fd/3 && sed -i 1d tasks/T/events.jsonl",
                                     "exec 3<.harness; cd /proc/self/task/123/fd/3 && sed -i 1d tasks/T/events.jsonl",
                                     "ln -s /dev/fd x && cd x/3 3<.harness && sed -i 1d tasks/T/events.jsonl",
                                     "ln -s /proc/self p && cd p/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl"])
def test_a_descriptor_folder_spelled_otherwise_is_unknown(command):
    """#28's task F-0108."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"watch -n 1 -x sh -c 'sed -i 1d {LEDGER}'",
                                     "watch --interval 1 -x bash -c 'git commit --no-verify -m x'",
                                     f"watch -n1 -x sh -c 'sed -i 1d {LEDGER}'", f"watch -q 3 -x sh -c 'sed -i 1d {LEDGER}'"])
def test_watch_exec_is_found_past_option_values(command):
    """#28's task F-0109."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["grep -rl --exclude-dir node_modules task.created | xargs sed -i 1d",
                                     "grep -rl --max-count 1 task.created | xargs sed -i 1d",
                                     "grep -rl --exclude-d node_modules task.created | xargs sed -i 1d"])
def test_grep_s_long_options_with_a_separate_value_are_read(command):
    """#28's task F-0110."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["grep -rl --exclude-dir node_modules foo src | xargs sed -i s/a/b/",
                                     "grep -rl --max-count 1 foo src | xargs sed -i s/a/b/"])
def test_grep_s_long_options_keep_the_paths_given(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["nice() { \"$@\"; }; nice cd .harness && sed -i 1d tasks/T/events.jsonl",
                                     "env() { builtin \"$@\"; }; env cd .harness && sed -i 1d tasks/T/events.jsonl",
                                     "function nohup { \"$@\"; }; nohup cd .harness && sed -i 1d tasks/T/events.jsonl",
                                     "shopt -s expand_aliases; alias nice=builtin\nnice cd .harness && sed -i 1d tasks/T/events.jsonl"])
def test_a_prefix_word_the_line_redefines_runs_its_cd_in_the_shell(command):
    """#28's task F-0111."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ['for d in */; do (cd "$d" && [ -d .git ] && git pull); done',
                                     'for d in src tests; do (cd "$d" && ls -d build); done',
                                     'for f in src tests; do (cd "$f" && rm -f out.log); done',
                                     'for d in src tests; do (cd "$d" && ls d/); done'])
def test_a_loop_variable_s_letter_as_an_option_sets_nothing(command):
    """#28's task F-0112 (a false denial)."""
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["for d in src; do :; done; for d; do cd $d && rm -rf tasks; done",
                                     "for d in src; do d+=/../.harness; cd $d && rm -rf tasks; done",
                                     "for d in src; do let d=1; cd $d; rm -rf tasks; done",
                                     "for d in src; do (( d = 1 )); cd $d && rm -rf .harness; done",
                                     "for d in src; do :; done; select d in .harness; do cd $d && rm -rf tasks; done"])
def test_a_loop_variable_set_another_way_stays_unknown(command):
    assert _denied(command), command


# -- a fifteenth read, of the thirteenth and fourteenth reads' fixes (#28's task F-0120..F-0124) --------------

@pytest.mark.parametrize("command", ["bash -O dotglob -c 'sed -i 1d */tasks/*/events.jsonl'",
                                     "bash -O nocaseglob -c 'sed -i 1d .HARNES?/tasks/T/events.jsonl'",
                                     "bash -O dotglob -O globstar -c 'sed -i 1d **/events.jsonl'"])
def test_glob_options_given_to_a_shell_are_read(command):
    """#28's task F-0120."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["shopt -s extglob\nsed -i 1d @(\\.harness)/tasks/T/events.jsonl",
                                     "shopt -s extglob\nsed -i 1d @(x|\".harness\")/tasks/T/events.jsonl",
                                     "bash -O extglob -c \"sed -i 1d @('.harness')/tasks/T/events.jsonl\""])
def test_an_extglob_group_with_a_quoted_or_escaped_dot_names_dotted_folders(command):
    """#28's task F-0121."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"EDITOR='sed -i 1d {LEDGER}' git commit -q --allow-empty",
                                     f"git -c core.editor='sed -i 1d {LEDGER}' commit -q --allow-empty",
                                     f"GIT_SEQUENCE_EDITOR='sed -i 1d {LEDGER}' git rebase -i HEAD",
                                     f"git -c core.fsmonitor='sed -i 1d {LEDGER}' status",
                                     f"git -c diff.external='sed -i 1d {LEDGER}' diff --no-index a.txt b.txt",
                                     f"git -c credential.helper='!sed -i 1d {LEDGER}' credential fill",
                                     f"git config core.editor 'sed -i 1d {LEDGER}'",
                                     f"GIT_PAGER='sed -i 1d {LEDGER}' git log"])
def test_a_command_line_git_runs_from_its_settings_is_judged(command):
    """#28's task F-0122."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["EDITOR=vim git commit", "git -c core.editor='code --wait' commit",
                                     "GIT_PAGER=cat git log", "git config core.editor 'nano -w'",
                                     "git -c credential.helper=store push", "git -c diff.external=difft diff"])
def test_ordinary_git_settings_stay_allowed(command):
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["exec 3<.harness; cd /; sed -i 1d dev/fd/3/tasks/T/events.jsonl",
                                     "exec 3<.harness; cd /; sed -i 1d proc/self/fd/3/tasks/T/events.jsonl"])
def test_a_descriptor_path_relative_to_the_root_folder_is_unknown(command):
    """#28's task F-0123."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["ln -s /dev d && cd d/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl",
                                     "ln -s //dev d", "ln -sf /proc/ p"])
def test_a_link_into_dev_is_refused(command):
    """#28's task F-0124."""
    assert _denied(command), command


# -- a sixteenth read, of the rule judging what git runs from its settings (#28's task F-0125..F-0130) ---------

SED = f"sed -i 1d {LEDGER}"


@pytest.mark.parametrize("command", [f"git rebase -x '{SED}' HEAD~1", f"git rebase --exec='{SED}' HEAD~1",
                                     f"git difftool -x '{SED}' HEAD", f"git difftool --extcmd='{SED}' HEAD",
                                     f"git bisect run {SED}", f"git submodule foreach '{SED}'"])
def test_a_command_line_a_git_option_runs_is_judged(command):
    """#28's task F-0125."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"git -c trailer.x.cmd='{SED}' interpret-trailers --trailer x=1 </dev/null",
                                     f"git -c difftool.x.cmd='{SED}' difftool -t x HEAD",
                                     f"git -c mergetool.x.cmd='{SED}' mergetool -t x",
                                     f"git -c man.x.cmd='{SED}' help -m git", f"git -c browser.x.cmd='{SED}' web--browse x"])
def test_every_setting_git_runs_as_a_command_is_judged(command):
    """#28's task F-0126."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"git config -f .git/config core.editor '{SED}'",
                                     f"git config --file=.git/config core.editor '{SED}'",
                                     f"git config --type=path core.editor '{SED}'"])
def test_git_config_of_a_command_key_behind_options_is_judged(command):
    """#28's task F-0127."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"V='{SED}' git --config-env=core.editor=V tag -a v",
                                     "git --config-env=core.editor=V tag -a v",
                                     f"V='{SED}' git --config-env core.pager=V log"])
def test_a_command_key_set_from_the_environment_is_judged(command):
    """#28's task F-0128."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["git -c filter.x.clean='sed -i 1d %f' add --renormalize .",
                                     "git -c filter.x.smudge='truncate -s 0 %f' checkout ."])
def test_a_filter_s_file_name_may_be_the_ledger(command):
    """#28's task F-0129."""
    assert _denied(command), command


@pytest.mark.parametrize("command", [f"git -c protocol.ext.allow=always fetch 'ext::{SED}'",
                                     "git clone 'ext::sh -c sed% -i% 1d% .harness/tasks/T/events.jsonl' x", f"git remote add r 'ext::{SED}'"])
def test_the_ext_transport_s_command_is_judged(command):
    """#28's task F-0130."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["git rebase -x 'pytest -q' HEAD~3", "git difftool -x 'meld' HEAD",
                                     "git submodule foreach 'git pull'", "git bisect run pytest -x",
                                     "git config -f .gitmodules submodule.x.url https://e.com/x",
                                     "git -c filter.lfs.clean='git-lfs clean -- %f' add a.bin",
                                     "git -c trailer.sign.cmd='echo me' interpret-trailers", "git fetch origin"])
def test_ordinary_git_commands_that_run_commands_stay_allowed(command):
    assert not _denied(command), command
