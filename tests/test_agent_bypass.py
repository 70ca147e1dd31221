"""The bypass denier, one row per command: every known bypass denied with the legitimate
command named, every look-alike allowed."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell, check_write, mentions_guarded
from harness.agent.judge.guarded_paths import Where
from harness.agent.judge.shell_commands import ShellSyntaxError, parse

ROOT = "/repo"
HERE = Where(ROOT, ROOT)
EV = ".harness/tasks/TASK-20260101-abcdef/events.jsonl"
EVID = ".harness/tasks/TASK-20260101-abcdef/evidence/unit_test.json"

DENIED = [
    ("git commit --no-verify -m wip", "no-verify"),
    ("git commit -n -m wip", "no-verify"),
    ("git commit -anm wip", "no-verify"),
    ("git commit -m wip --no-verify", "no-verify"),
    ("git commit --no-veri -m wip", "no-verify"),
    ("cd src && git commit -qn -m 'x'", "no-verify"),
    ("git -C sub commit --no-verify", "no-verify"),
    ("git push --no-verify origin main", "no-verify"),
    ("git push origin main --no-verify", "no-verify"),
    ("git merge --no-verify feature", "no-verify"),
    ("echo $(git commit -n -m x)", "no-verify"),
    ('bash -c "git commit --no-verify -m x"', "no-verify"),
    ("sh -c 'git push --no-verify'", "no-verify"),
    ("for i in 1; do git commit -n -m x; done", "no-verify"),
    ("[[ -f x ]] && git commit -n -m x", "no-verify"),
    ("sudo git commit -n -m x", "no-verify"),
    ("env FOO=1 git commit --no-verify", "no-verify"),
    ("SKIP=harness-validate git commit -m x", "skip-hook"),
    ("SKIP=flake8,harness-push-guard git push", "skip-hook"),
    ("export SKIP=harness-validate", "skip-hook"),
    ("env SKIP=harness-gate,harness-validate git commit -m x", "skip-hook"),
    ("git config core.hooksPath /dev/null", "hooks-path"),
    ("git config --local core.hooksPath .nohooks", "hooks-path"),
    ("git config --unset core.hooksPath", "hooks-path"),
    ("git -c core.hooksPath=/dev/null commit -m x", "hooks-path"),
    ("git config set core.hookspath x", "hooks-path"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/x git commit", "hooks-path"),
    ("git notes --ref harness add -m forged HEAD", "notes-ref"),
    ("git notes --ref=refs/notes/harness remove HEAD", "notes-ref"),
    ("git update-ref refs/notes/harness deadbeef", "notes-ref"),
    ("git update-ref -d refs/notes/harness", "notes-ref"),
    ("GIT_NOTES_REF=refs/notes/harness git notes add -m x", "notes-env"),
    ("harness approve gate-change", "approve"),
    ("python -m harness approve config-change", "approve"),
    ("harness uninstall", "uninstall"),
    ("harness agent uninstall --host claude", "uninstall"),
    ("pre-commit uninstall", "uninstall"),
    ("rm -rf .harness", "delete-harness"),
    ("rm -rf ./.harness/", "delete-harness"),
    ("rm -r .harness/tasks/TASK-20260101-abcdef", "delete-harness"),
    ("git rm -r .harness", "delete-harness"),
    ("mv .harness /tmp/old", "delete-harness"),
    ("find .harness -name '*.json' -delete", "delete-harness"),
    (f"echo '{{}}' >> {EV}", "protected-file"),
    (f"printf x > {EVID}", "protected-file"),
    ("echo ok > .harness/approvals.jsonl", "protected-file"),
    ("tee -a .harness/allowed_signers < key.pub", "protected-file"),
    (f"sed -i 's/failed/passed/' {EVID}", "protected-file"),
    (f"cp /tmp/forged.json {EVID}", "protected-file"),
    ("cd .harness/tasks/TASK-20260101-abcdef && echo x >> events.jsonl", "protected-file"),
    ('echo x > "$TASK_DIR/events.jsonl"', "protected-file"),
    (f"git checkout HEAD~1 -- {EV}", "protected-file"),
    (f"dd if=/dev/zero of={EVID}", "protected-file"),
    ("bash <<'EOF'\ngit commit --no-verify -m x\nEOF", "no-verify"),
    (f"cat > {EV} <<'EOF'\n{{}}\nEOF", "protected-file"),
    ("git commit --no-verify -m \"$(cat <<'EOF'\nmessage\nEOF\n)\"", "no-verify"),
]

ALLOWED = [
    'git commit -m "do not use --no-verify"',
    "git commit -m '-n is not a flag here'",
    "git commit -F msg.txt",
    "git commit -m x -- -n",
    "git commit -am 'fix: stop --no-verify'",
    "git commit --verify -m x",
    "git commit -uno -m x",
    "git status",
    "git push -n origin main",
    "git push origin main",
    "git merge -n feature",
    "grep -n no-verify README.md",
    f"cat {EV}",
    f"tail -n 5 {EV}",
    f"sed -n 1p {EV}",
    "git notes show HEAD",
    "git notes --ref harness show HEAD",
    "git notes --ref harness list",
    "git notes add -m 'my own note'",
    "git log --notes=harness -1",
    "git update-ref refs/heads/topic HEAD",
    "git config core.hooksPath",
    "git config --get core.hooksPath",
    "git config user.name Someone",
    "SKIP=flake8 git commit -m x",
    "echo SKIP=harness-validate",
    "harness status",
    "harness gate --json",
    "harness evidence unit_test -- python -m pytest -q",
    "echo harness approve",
    "grep -rn 'harness approve' docs/",
    "rm -rf build dist",
    "rm -rf .harness/local/cache",
    "ls -la .harness",
    "cat .harness/approvals.jsonl",
    "echo x > notes/events.jsonl.md",
    "echo x > /tmp/events.jsonl",
    "cp .harness/tasks/TASK-20260101-abcdef/evidence/unit_test.log /tmp/",
    "python -m pytest -q --junitxml=.harness/local/junit.xml",
    "git rm old_module.py",
    "git checkout main",
    "git restore src/app.py",
    "pre-commit run --all-files",
    "[[ -n $X ]] && echo yes",
    "x=$((1+2)); echo $x",
    # How Claude Code writes commit messages: a quoted here-document inside $(…), whose body is data.
    "git commit -m \"$(cat <<'EOF'\nFix: never use --no-verify; -n too\ngit commit -n is bad\n\n"
    "Co-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
    "cat <<EOF > notes.md\nrm -rf .harness\nEOF",
]


@pytest.mark.parametrize("command,rule", DENIED)
def test_a_known_bypass_is_denied_with_the_legitimate_command(command: str, rule: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None, command
    assert denial.rule == rule
    assert "Instead:" in denial.message() and len(denial.instead) > 10


@pytest.mark.parametrize("command", ALLOWED)
def test_a_look_alike_is_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None


def test_the_table_holds_at_least_forty_commands() -> None:
    assert len(DENIED) + len(ALLOWED) >= 40 and len(DENIED) >= 20 and len(ALLOWED) >= 20


@pytest.mark.parametrize("path", [f"/repo/{EV}", f"/repo/{EVID}", "/repo/.harness/approvals.jsonl",
                                  "/repo/.harness/allowed_signers", EV])
def test_an_edit_tool_writing_a_guarded_file_is_denied(path: str) -> None:
    denial = check_write(path, HERE)
    assert denial is not None and denial.rule == "protected-file"


@pytest.mark.parametrize("path", ["/repo/app.py", "/repo/.harness/tasks/T/requirements.yaml",
                                  "/repo/.harness/local/junit.xml", "/elsewhere/.harness/events.jsonl",
                                  "/repo/docs/evidence/notes.md"])
def test_an_edit_tool_writing_an_ordinary_file_is_allowed(path: str) -> None:
    assert check_write(path, HERE) is None


def test_a_relative_path_is_judged_from_the_directory_the_command_runs_in() -> None:
    inside = Where(ROOT, ROOT + "/.harness/tasks/TASK-20260101-abcdef")
    assert check_shell("echo x >> events.jsonl", inside) is not None
    assert check_shell("echo x >> events.jsonl", Where(ROOT, ROOT + "/src")) is None


def test_a_renamed_notes_ref_is_guarded_under_its_configured_name() -> None:
    assert check_shell("git update-ref refs/notes/stamps abc", HERE, notes_ref="refs/notes/stamps") is not None
    assert check_shell("git update-ref refs/notes/harness abc", HERE, notes_ref="refs/notes/stamps") is None


def test_an_unreadable_command_raises_so_the_caller_can_refuse_it() -> None:
    with pytest.raises(ShellSyntaxError):
        parse("git commit -m 'unterminated")
    assert mentions_guarded("git commit -m 'unterminated")
    assert not mentions_guarded("ls -la 'unterminated")


# F-0232: a section renamed or removed whole sets or drops the keys the rules judge one by one.
@pytest.mark.parametrize("command,rule", [
    ("git config --rename-section x core", "hooks-path"),
    ("git config rename-section x core", "hooks-path"),
    ("git config --ren x core", "hooks-path"),
    ("git config --rename-section core x", "hooks-path"),
    ("git config --remove-section core", "hooks-path"),
    ("git config --local remove-section core", "hooks-path"),
    ("git config --rename-section y include", "config-source"),
    ("git config --rename-section y includeIf.gitdir:/repo/", "config-source"),
    ("git config --remove-section include", "config-source"),
    ("git config --rename-section y notes", "notes-ref"),
    ("git config --rename-section y alias", "config-source"),
    ("git config --rename-section y remote.self", "config-source"),
    ("git config --rename-section y hook.pre", "config-source"),
    ("git config --global --rename-section y sequence", "config-source"),
    ("git config --rename-section y $SECTION", "unresolved"),
])
def test_a_config_section_renamed_or_removed_is_judged_by_the_keys_it_holds(command: str, rule: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == rule, (command, denial)
    assert "Instead:" in denial.message()


@pytest.mark.parametrize("command", ["git config --rename-section x y", "git config --rename-section branch.a branch.b",
                                     "git config --remove-section branch.topic", "git config remove-section user",
                                     "git config x.hooksPath /tmp/nohooks", "git config --get-regexp '^core\\.'",
                                     "git config --list --show-origin"])
def test_ordinary_config_sections_stay_allowed_to_rename_and_remove(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)


# F-0234: where bashlex gives up (`[[ … ]]`, `case`), the fallback reads a line as bash would.
NL = "\n"


@pytest.mark.parametrize("command,rule", [
    (f"[[ -e a ]]; git commit \\{NL}--no-verify -m x", "no-verify"),
    (f"[[ -e a ]]; echo x >\\{NL}{EV}", "protected-file"),
    (f"[[ -e a ]]; git commit -m \"a \\{NL}b\" \\{NL}-n", "no-verify"),
    ("[[ -e a ]]; git commit $(printf %s -n) -m x", "no-verify"),
    ("[[ -e a ]]; git commit `printf -- -n` -m x", "no-verify"),
    ("[[ -e a ]]; git commit $(cat flags) -m x", "unresolved"),
    ("[[ -e a ]]; git commit $'\\055n' -m x", "unresolved"),
    ("[[ -e a ]]; git commit $'-n' -m x", "no-verify"),
    ("case a in a) git commit $(echo -E -n) -m x;; esac", "unresolved"),
])
def test_a_line_bashlex_cannot_read_is_read_as_bash_joins_and_substitutes_it(command: str, rule: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == rule, (command, denial)


@pytest.mark.parametrize("command", ["[[ -e a ]] && git commit -m ok", "[[ -e a ]] && git commit -m \"$(cat msg.txt)\"",
                                     "[[ -e a ]] && git commit -m $'first\\nsecond'",
                                     "[[ -e a ]] && git push origin $(git branch --show-current)",
                                     f"[[ -e a ]]; echo 'keep \\{NL}this' && git status", "[[ -e a ]]; echo '$(git commit -n)'",
                                     f"[[ -e a ]] && ls \\{NL}-la", "[[ -e a ]]; echo $((1 + 2))"])
def test_an_ordinary_line_bashlex_cannot_read_stays_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)


# F-0247, F-0248: git reads a unique prefix of a long option as the option (`--typ bool` is `--type bool`): its value
# is no key nor section, and every section after a rename or removal is judged.
@pytest.mark.parametrize("command,rule", [
    ("git config --typ bool --rename-section x core", "hooks-path"),
    ("git config --ty bool --rename-section x core", "hooks-path"),
    ("git config --fil .git/config --rename-section x core", "hooks-path"),
    ("git config -t bool --rename-section x core", "hooks-path"),
    ("git config --typ bool rename-section x core", "hooks-path"),
    ("git config --typ bool --remove-section x include", "config-source"),
    ("git config --typ path include.path /tmp/evil.cfg", "config-source"),
    ("git config --ty path include.path /tmp/evil.cfg", "config-source"),
    ("git config --fil .git/config include.path /tmp/evil.cfg", "config-source"),
    ("git config set --typ path include.path /tmp/evil.cfg", "config-source"),
    ("git config --typ path alias.ci '!git commit -n -m x'", "no-verify"),
    ("git config --typ path core.fsmonitor 'rm -rf .harness'", "delete-harness"),
    ("git config --typ path core.sshCommand 'git commit -n -m x'", "no-verify"),
    ("git config -zt path alias.ci '!git commit -n -m x'", "no-verify"),
    ("git config set --val x --typ path include.path /tmp/evil.cfg", "config-source"),
    ("git config --comm note --typ path core.notesRef refs/notes/harness", "notes-ref"),
])
def test_an_abbreviated_config_option_s_value_is_no_key(command: str, rule: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == rule, (command, denial)


@pytest.mark.parametrize("command", ["git config --typ bool user.useConfigOnly true", "git config --fil ~/x.ini a.b c",
                                     "git config --defa main --get init.defaultBranch", "git config -t path core.editor",
                                     "git config --fil build/tool.cfg --rename-section a b",
                                     "git config set --typ bool --comm why user.useConfigOnly true"])
def test_ordinary_config_with_abbreviated_options_stays_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)


# F-0250..F-0252: where bashlex gives up, process substitutions run their commands, comments hold no quote, and only
# an unquoted, uncommented `<<` starts a here-document (on any line).
@pytest.mark.parametrize("command", [
    "[[ -f a.txt ]] && cat <(git commit -n -qam x)",
    "[[ -f a.txt ]] && tee >(git push --no-verify) < f",
    "[[ -f a.txt ]] && diff <(echo a) <(git commit -n -m x)",
    f"[[ -f a.txt ]] # don't{NL}git commit -n -qam x # '",
    f"[[ -f a.txt ]]; echo ok # it's{NL}git push --no-verify # '",
    f"[[ -f a.txt ]];# \"{NL}git commit -n -m x # \"",
    f'echo "<<true"{NL}git commit -n -qam x{NL}true',
    f"echo '<<EOF'{NL}git commit -n -qam x{NL}EOF",
    f": # <<EOF{NL}git commit -n -qam x{NL}EOF",
    f"echo \\<<EOF{NL}git commit -n -qam x{NL}EOF",
    f"[[ -f a ]] && echo '<<EOF'{NL}git commit -n -qam x{NL}EOF",
])
def test_what_a_process_substitution_comment_or_quoted_heredoc_marker_hides_is_judged(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == "no-verify", (command, denial)


@pytest.mark.parametrize("command", [
    "[[ -f a ]] && cat <(ls)", "[[ -f a ]] && diff <(git show HEAD:a) a", f"[[ -f a ]] # don't{NL}pytest -q",
    f"cat <<true{NL}git commit -n -qam x{NL}true", f"cat <<'EOF' > notes.txt{NL}don't git commit -n{NL}EOF",
    f"git commit -m \"$(cat <<'EOF'{NL}Don't run git commit -n here, it's \"bad\"{NL}EOF{NL})\"",
    f"[[ -e a ]] && echo \"a#b\" ${{#x}} # it's{NL}ls", f"[[ -e a ]] && cat <<EOF{NL}it's git commit -n{NL}EOF",
])
def test_ordinary_substitutions_comments_and_heredocs_stay_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)


# F-0272..F-0275: an escaped blank or operator starts no comment, an arithmetic `<<` is a shift, a here-document's
# body starts after the line its quote closes on, and a word keeps the quotes of the other kind inside its quotes.
@pytest.mark.parametrize("command", [
    "[[ 1 ]]; echo \\ #; git commit -n -m loosen",
    "[[ 1 ]]; echo a\\;#; git commit -n -m x",
    "[[ 1 ]] && echo a\\|# && git push --no-verify",
    f"echo $((1<<true)){NL}git commit -n -m loosen{NL}true",
    f"echo $(( (1+2) << EOF )){NL}git commit -n -qam x{NL}EOF",
    f"[[ 1 ]]; echo $((1<<true)){NL}git commit -n -m x{NL}true",
    f"cat <<true; bash -c \"{NL}git commit -n -m loosen{NL}true{NL}\"{NL}true",
    f"cat <<EOF; eval '{NL}git push --no-verify{NL}EOF{NL}'{NL}EOF",
    "git -c alias.x='!sh -c \"git commit -n -m loosen\"' x",
    "git -c alias.x='!sh -c \"git commit -n -m $HOME\"' x",
    "git -c core.editor='sh -c \"git commit -n -m x\"' commit",
])
def test_what_an_escaped_hash_arithmetic_shift_open_quote_or_inner_quote_hides_is_judged(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == "no-verify", (command, denial)


@pytest.mark.parametrize("command", [
    "echo a # note", "[[ 1 ]]; echo a # it's", "[[ 1 ]]; echo \\# not a comment", "echo $((1<<3))",
    f"[[ 1 ]]; echo $((1<<3)){NL}ls", f"echo $((1 << 2)) && cat <<EOF{NL}git commit -n{NL}EOF",
    f"echo \"a{NL}b\"; cat <<EOF{NL}git commit -n{NL}EOF", f"echo 'x{NL}y' && cat <<EOF > n.txt{NL}it's git push --no-verify{NL}EOF",
    f"cat <<A <<B{NL}git commit -n{NL}A{NL}git push --no-verify{NL}B",
    "git -c alias.st='status -s' st", "git -c alias.l='log --format=\"%h %s\"' l", "echo 'a \"b\"' \"c 'd'\"",
])
def test_ordinary_comments_arithmetic_heredocs_and_quoted_words_stay_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)


# Read 80: `((echo x) )` is two subshells (its here-document's body starts on the next line: F-0278); `$((` in
# double quotes is arithmetic, its `<<` a shift (F-0280).
@pytest.mark.parametrize("command", [
    f"cat <<EOF; ((echo x) ){NL}EOF{NL}# )){NL}git commit -n -qam loosen{NL}EOF",
    f"echo \"$((1<<EOF))\"{NL}git commit -n -qam loosen{NL}EOF",
    f"echo \"x $(( 2 << true )) y\"{NL}git push --no-verify{NL}true",
])
def test_subshells_that_look_like_arithmetic_and_quoted_arithmetic_hide_nothing(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None and denial.rule == "no-verify", (command, denial)


@pytest.mark.parametrize("command", [
    "echo \"$((1<<3))\"", f"echo \"$((1 << 2))\" && cat <<EOF{NL}git commit -n{NL}EOF", "((echo x) )",
    f"(( n = 1 << 2 )) && cat <<EOF{NL}git commit -n{NL}EOF",
])
def test_ordinary_arithmetic_and_subshells_stay_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None, check_shell(command, HERE)
