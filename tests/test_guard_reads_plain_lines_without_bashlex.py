"""A plainly written command line (words, a quoted part, `&&`, `||`, `;`, `|`) is split into its commands
without bashlex, exactly as bashlex splits it: by example and by fuzzing, the commands and the guard's
answers are the ones the bashlex reading gives. Anything less plain is left to bashlex, which a guard
process then imports with its parser tables from the cache (:func:`harness.agent.guard_caches.arm`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent.judge import plain_line, shell_commands
from harness.agent.judge.bypass import check_shell
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.guarded_paths import Where

ROOT = "/repo"
HERE = Where(ROOT, ROOT)
PLAIN = ["rm -rf .harness/tasks", "git add -A && git commit -n -m 'x'", "git commit -m \"fix the parser (see #12)\"",
         "git status; git diff --stat", "make test || echo failed", "echo 'git commit -n' | bash", "ls -la | sh",
         "printf 'git push --no-verify' | sh -x", "bash -c 'rm -rf .harness'", "sudo git commit --no-verify",
         "cd src && git commit -qn -m 'x'", "git -c core.hooksPath=/dev/null commit", "env -S 'git commit -n'",
         "find . -name x -exec rm -rf .harness +", "git config alias.ci 'commit -n'", "eval git commit -n",
         "git notes --ref harness add -m x HEAD", "git commit --message='a b  c' --no-verify", "cp a .git/hooks/pre-commit",
         "rm -rf .git/hooks", "xargs git commit -n", "timeout 5 git push --no-verify", "harness approve gate-change",
         "python -m harness approve x", "git checkout main -- .harness", "true && git commit --no-verify -m x",
         "git commit -m ''", "echo \"\" ; git push", "git update-ref refs/notes/harness HEAD", "%1 a@b +c ,d :e"]
NOT_PLAIN = ["echo $HOME", "echo `id`", "git commit -m \"$(cat msg)\"", "a & b", "a &&", "&& a", "a ;; b", "a || || b",
             "FOO=1 git commit", "if true; then git commit -n; fi", "for i in 1; do rm -rf x; done", "time git commit",
             "a > out", "cat < in", "echo 'it''s'", "echo \"a 'b'\"", "echo 'a \"b\"'", "echo a\\ b", "a\nb", "a\tb",
             "echo 'unbalanced", "echo ~/x", "echo a*", "(cd x && git commit -n)", "{ git commit -n; }", "! git push",
             "echo '$(git commit -n)'x", "echo a'b'c", "echo \"a\"'b'", "echo #comment", "echo 'a\\b'", "", "   ",
             "echo \"a!b\"", "x=1", "git checkout HEAD~1 -- .harness", "find . -exec rm {} ;"]


def bashlex_commands(text: str) -> list[shell_commands.SimpleCommand]:
    return list(shell_commands._bashlex_commands(text))


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_line_s_commands_are_bashlex_s(text):
    plain = shell_commands._plain_commands(text)
    assert plain is not None, text
    assert plain == bashlex_commands(text)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_a_line_that_is_not_plain_is_left_to_bashlex(text):
    assert plain_line.pipelines(text) is None
    assert shell_commands._plain_commands(text) is None


# Words and operators, quoted parts and what bashlex reads its own way inside them (a quote of the other
# kind, `$(…)` or a backtick after a word's plain start, a backslash): a line of them is either read
# plainly, exactly as bashlex reads it, or left to bashlex.
PIECES = st.sampled_from(["a", "b1", "-n", "--no-verify", ".harness/tasks", "git", "commit", "rm", "-rf", "bash",
                          "-c", "echo", "sh", "if", "x=1", "=", "%", "@", ":", "+", ",", "/", ".", "_", "*", "?",
                          " ", "  ", "\t", "&&", "||", ";", "|", "&", "'", '"', "'x y'", '"x y"', "'a\"b'", "\"a'b\"",
                          "'$(git commit -n)'", "'`id`'", "$(a)", "`a`", "$a", "\\", "\n", "#", "(", ")", "{", "}",
                          "[", "]", "!", "~", "^", "<", ">"])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=10))
def test_fuzzed_lines_read_plainly_are_read_as_bashlex_reads_them(pieces):
    text = "".join(pieces)
    plain = shell_commands._plain_commands(text)
    if plain is not None:
        assert plain == bashlex_commands(text), text


def without_plain_reading(monkeypatch, text: str, **kwargs) -> object:
    with monkeypatch.context() as m:
        m.setattr(shell_commands, "_plain_commands", lambda _text: None)
        try:
            return check_shell(text, HERE, **kwargs)
        except shell_commands.ShellSyntaxError as exc:
            return exc.args


@pytest.mark.parametrize("text", PLAIN + NOT_PLAIN)
def test_the_guard_s_answer_is_the_one_it_gives_reading_every_line_with_bashlex(monkeypatch, text):
    setup = GitSetup(aliases={"ci": "commit -n", "st": "status"}, hooks_dirs=(f"{ROOT}/.git/hooks", f"{ROOT}/.husky"))
    try:
        answer: object = check_shell(text, HERE, setup=setup)
    except shell_commands.ShellSyntaxError as exc:
        answer = exc.args
    assert answer == without_plain_reading(monkeypatch, text, setup=setup)


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=8))
def test_fuzzed_lines_get_the_answer_of_the_bashlex_reading(pieces):
    text = "".join(pieces)
    if shell_commands._plain_commands(text) is None:
        return  # read by bashlex either way
    with pytest.MonkeyPatch.context() as m:
        try:
            answer: object = check_shell(text, HERE)
        except shell_commands.ShellSyntaxError as exc:
            answer = exc.args
        assert answer == without_plain_reading(m, text)


# -- in a guard process ----------------------------------------------------------------------

LOADED = ("import atexit, sys\n"
          "out = sys.argv.pop(1)\n"
          "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
          "from harness.cli.launch import entry\n"
          "entry()\n")


def guard(repo: Path, command: str, tables: Path) -> tuple[set[str], str]:
    out = repo / ".loaded"
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": command}}
    env = {**os.environ, "HARNESS_PARSER_TABLES": str(tables)}
    proc = subprocess.run([sys.executable, "-c", LOADED, str(out), "hook", "agent", "claude", "pre-tool-use"],
                          input=json.dumps(call), cwd=repo, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return set(out.read_text().splitlines()), proc.stdout


def test_a_plain_line_is_judged_without_importing_bashlex(h, repo, tmp_path):
    for command, denied in (("rm -rf .harness/tasks", True), ("git add -A && git commit -n -m 'x'", True),
                            ("rm -rf build", False)):
        loaded, answer = guard(repo, command, tmp_path / "tables")
        assert "harness.agent.judge.bypass" in loaded
        assert not loaded & {"bashlex", "harness.agent.bashlex_tables"}, command
        assert ("permissionDecision" in answer) == denied, (command, answer)
    assert not (tmp_path / "tables").exists() or not list((tmp_path / "tables").glob("bashlex-tables-*"))


def test_a_line_bashlex_reads_imports_it_with_the_cached_tables(h, repo, tmp_path):
    tables = tmp_path / "tables"
    for _ in range(2):  # the first run writes the tables, the second reads them
        loaded, answer = guard(repo, 'git commit -n -m "$(cat msg)"', tables)
        assert {"bashlex", "harness.agent.bashlex_tables"} <= loaded
        assert "--no-verify" in answer
        assert len(list(tables.glob("bashlex-tables-*.marshal"))) == 1


ARMED = """
import sys
from harness.agent import guard_caches
guard_caches.arm(sys.argv[1])
guard_caches.arm(sys.argv[1])  # once is enough: a second finder is not added
armed = [type(f).__name__ for f in sys.meta_path if type(f).__name__ == "_OnFirstImport"]
import bashlex
left = [type(f).__name__ for f in sys.meta_path if type(f).__name__ in ("_OnFirstImport", "TableFinder")]
print(armed, left, bashlex.yacc.yacc.__name__, bashlex.yacc.LRTable.__name__,
      [str(t) for t in bashlex.parse("git commit -n && ls")] != [])
"""


@pytest.mark.parametrize("run", ["writes", "reads"])
def test_the_armed_import_is_bashlex_s_own_and_leaves_nothing_behind(tmp_path_factory, run):
    tables = tmp_path_factory.getbasetemp() / "armed-tables"
    out = subprocess.run([sys.executable, "-c", ARMED, str(tables)], capture_output=True, text=True, check=True,
                         timeout=300).stdout.split()
    assert out == ["['_OnFirstImport']", "[]", "yacc", "LRTable", "True"]
    assert len(list(tables.glob("bashlex-tables-*.marshal"))) == 1
