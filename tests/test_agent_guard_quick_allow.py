"""The tool guard's quick answer (harness.agent.quick_allow) is the full judge's answer: for every
call it answers, the reply is the one the judge gives with the quick answer turned off, on both
sides of each of its conditions (a quote, an operator, a path in .harness/ or .git/, a symlink
into them, a hooks folder, an unusable cwd, a linked worktree, ...), and by fuzzing. The plain
calls it exists for (`ls -la`, an edit of a source file) are answered by it, so these
comparisons cannot pass by its never answering."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.agent import quick_allow, run
from harness.agent.hosts import Payload, tool_action
from harness.agent.judge import bypass_files, shell_commands, shell_prefixes, shell_resolve

CRASH_LOG = re.compile(r"crash log: \S+")


def answer(host: str, cwd: str | None, tool: str, tool_input: object, quick: bool, monkeypatch) -> tuple:
    raw = json.dumps({"session_id": "s", "cwd": cwd, "tool_name": tool, "tool_input": tool_input})
    with monkeypatch.context() as m:
        if not quick:
            m.setattr(quick_allow, "surely_allowed", lambda cwd, action: False)
        reply = run.run(host, "pre-tool-use", raw)
    return (CRASH_LOG.sub("crash log: LOG", reply.stdout), CRASH_LOG.sub("crash log: LOG", reply.stderr), reply.code)


def same_answer(host: str, cwd: str | None, tool: str, tool_input: object, monkeypatch) -> tuple:
    quick = answer(host, cwd, tool, tool_input, True, monkeypatch)
    full = answer(host, cwd, tool, tool_input, False, monkeypatch)
    assert quick == full, (tool, tool_input, cwd)
    return quick


def answered_quickly(cwd: str | None, host: str, tool: str, tool_input: dict) -> bool:
    p = Payload(session_id="s", cwd=cwd, tool_name=tool, tool_input=tool_input)
    return quick_allow.surely_allowed(p.cwd, tool_action(p))


PLAIN_COMMANDS = ["ls -la", "pytest -q tests", "cat README.md", "grep -rn TODO src", "echo a=b", "pytest --tb=short -x",
                  "wc -l README.md", "ls -la /", "date +%Y-%m-%d"]
JUDGED_COMMANDS = ["ls .harness", "grep -rn SKIP=harness-validate src", "echo GIT_NOTES_REF=refs/notes/harness",
                   "cat .harness/tasks/T/events.jsonl", "pytest --basetemp=.harness", "pytest --junitxml=evidence.xml",
                   "ls .pre-commit-config.yaml", "cat allowed_signers", "sort -o x y", "uniq a b", "tree -o x",
                   "rg --pre=sh x", "rm -rf .harness", "ls > .harness/x", "ls; rm -rf .harness", "ls && git commit -n -m x",
                   "echo $(git commit -n)", "ls `rm -rf .harness`", "LS=1 ls", "ls -la .git/hooks", "ls hooks",
                   "tee .harness/tasks/T/events.jsonl", "cp a .harness/tasks/T/events.jsonl", "sudo rm -rf .harness",
                   "env SKIP=harness-validate git commit", "ls\nrm -rf .harness", "ls\trm -rf .harness", "", "   ",
                   "ls #x", "ls ~", "ls {a,b}", "ls *.py", "pytest -k 'a or b'", "bash -c 'rm -rf .harness'",
                   "echo x | sh", "xargs rm -rf .harness", "git commit -n", "harness approve x", "tar -xf a.tar",
                   "python -m harness approve x", "find .harness -delete", "sed -i s/a/b/ .harness/x/events.jsonl",
                   "ls \\\n-la", "rm -rf build", "mv .harness x", "ls é",
                   # read 90's refusals (F-0310, F-0311, F-0313): git lines, each the judge's to answer
                   "git -c remote.x.url=. -c remote.x.uploadpack='rm -rf .harness' fetch x",
                   "git config remote.origin.uploadpack 'rm -rf .harness'", "git fetch --upl='rm -rf .harness' .",
                   "git rebase --exe 'rm -rf .harness' HEAD~1", "git init --template=/tmp/t", "git init",
                   "GIT_TEMPLATE_DIR=/tmp/t git init",
                   # read 94's refusals (F-0319..F-0322): git lines too
                   "GIT_CONFIG_GLOBAL=/tmp/c git init", "git -c include.path=/tmp/c fetch origin",
                   "git -c url.ext::sh%20x.insteadOf=zz: fetch zz:x", "git grep -Orm a", "git grep -n a"]
PLAIN_EDITS = ["README.md", "src/new.py", "sub/../README.md", "."]
# Outside the repository the judge looks: it may be another harness's record (#25's task F-0020).
JUDGED_EDITS = ["../outside.txt", "/tmp/elsewhere.txt", ".harness/tasks/T/events.jsonl", ".harness/local/x", ".harness/config.yaml", ".git/hooks/pre-commit",
                ".git/config", ".pre-commit-config.yaml", "hooks/x", ".github/workflows/ci.yml", "$HOME/x", "`x`",
                "*.py", "[ab].txt", "into-harness/events.jsonl", "into-hk/pre-commit", "sub/../.harness/x/evidence/y",
                "a\0b", "\ud800x", "", ".pre-commit-config.y?ml", "into-git/config"]


@pytest.fixture
def guarded(h, repo) -> Path:
    """The harness's repository, with symlinks into .harness/ and git's hooks folder."""
    (repo / ".harness" / "tasks" / "T" / "evidence").mkdir(parents=True, exist_ok=True)
    (repo / "sub").mkdir(exist_ok=True)
    os.symlink(repo / ".harness" / "tasks" / "T", repo / "into-harness")
    os.symlink(repo / ".git" / "hooks", repo / "into-hk")
    os.symlink(repo / ".git", repo / "into-git")
    return repo


@pytest.mark.parametrize("command", PLAIN_COMMANDS + JUDGED_COMMANDS)
def test_a_command_gets_the_judge_s_answer(guarded, monkeypatch, command):
    same_answer("claude", str(guarded), "Bash", {"command": command}, monkeypatch)


@pytest.mark.parametrize("path", PLAIN_EDITS + JUDGED_EDITS)
@pytest.mark.parametrize("tool", ["Edit", "Write", "NotebookEdit"])
def test_an_edit_gets_the_judge_s_answer(guarded, monkeypatch, path, tool):
    key = "notebook_path" if tool == "NotebookEdit" else "file_path"
    same_answer("claude", str(guarded), tool, {key: path, "old_string": "a", "new_string": "b"}, monkeypatch)


def test_the_plain_calls_are_answered_quickly_and_allowed(guarded, monkeypatch):
    for command in PLAIN_COMMANDS:
        assert answered_quickly(str(guarded), "claude", "Bash", {"command": command}), command
        assert same_answer("claude", str(guarded), "Bash", {"command": command}, monkeypatch) == ("", "", 0)
    for path in PLAIN_EDITS:
        assert answered_quickly(str(guarded / "sub"), "claude", "Edit", {"file_path": path}), path
        assert same_answer("claude", str(guarded / "sub"), "Edit", {"file_path": path}, monkeypatch) == ("", "", 0)


def test_what_the_judge_refuses_or_reads_closely_is_left_to_it(guarded):
    for command in JUDGED_COMMANDS:
        assert not answered_quickly(str(guarded), "claude", "Bash", {"command": command}), command
    for path in JUDGED_EDITS:
        assert not answered_quickly(str(guarded), "claude", "Edit", {"file_path": path}), path


def test_the_edits_through_a_symlink_are_refused_as_the_judge_refuses_them(guarded, monkeypatch):
    for path in ("into-harness/events.jsonl", "into-hk/pre-commit", "into-git/config"):
        stdout, _, _ = same_answer("claude", str(guarded), "Write", {"file_path": path}, monkeypatch)
        assert '"permissionDecision": "deny"' in stdout, path


@pytest.mark.parametrize("cwd", ["sub", "rel", "none", "nul", "surrogate", "outside", "no-harness", "missing"])
def test_a_cwd_of_every_kind_gets_the_judge_s_answer(guarded, tmp_path, monkeypatch, cwd):
    outside = tmp_path / "outside"
    outside.mkdir()
    bare = tmp_path / "bare"
    subprocess.run(["git", "init", "-q", str(bare)], check=True)
    monkeypatch.chdir(guarded)
    where = {"sub": str(guarded / "sub"), "rel": "sub", "none": None, "nul": f"{guarded}\0x",
             "surrogate": f"{guarded}/\ud800", "outside": str(outside), "no-harness": str(bare),
             "missing": str(guarded / "gone" / "deeper")}[cwd]
    for command in ("ls -la", "rm -rf .harness"):
        same_answer("claude", where, "Bash", {"command": command}, monkeypatch)
    for path in ("README.md", ".harness/tasks/T/events.jsonl"):
        same_answer("claude", where, "Edit", {"file_path": path}, monkeypatch)


def test_a_linked_worktree_is_left_to_the_judge(guarded, tmp_path, monkeypatch):
    subprocess.run(["git", "-C", str(guarded), "add", "-A"], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(guarded), "commit", "-qm", "x", "--no-verify"], check=True, capture_output=True)
    linked = tmp_path / "linked"
    subprocess.run(["git", "-C", str(guarded), "worktree", "add", "-q", str(linked)], check=True, capture_output=True)
    assert (linked / ".harness").is_dir()
    assert not answered_quickly(str(linked), "claude", "Bash", {"command": "ls -la"})
    assert not answered_quickly(str(linked), "claude", "Edit", {"file_path": "README.md"})
    for path in ("README.md", str(guarded / ".git" / "hooks" / "pre-commit")):
        same_answer("claude", str(linked), "Edit", {"file_path": path}, monkeypatch)


def test_each_host_s_tools_get_the_judge_s_answer(guarded, monkeypatch):
    cwd = str(guarded)
    calls = [("codex", "exec_command", {"command": ["ls", "-la"]}), ("codex", "Bash", {"command": "ls sub"}),
             ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Add File: src/x.py\n+x\n*** End Patch"}),
             ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Delete File: README.md\n*** End Patch"}),
             ("gemini", "run_shell_command", {"command": "ls -la", "dir_path": "sub"}),
             ("gemini", "write_file", {"file_path": "README.md"}), ("gemini", "replace", {"file_path": ".git/config"}),
             ("auto", "Bash", {"command": "pytest -q"}), ("claude", "MultiEdit", {"file_path": "src/a.py", "edits": []})]
    for host, tool, tool_input in calls:
        same_answer(host, cwd, tool, tool_input, monkeypatch)


def test_the_plain_readers_are_none_of_the_programs_the_judge_reads_closely():
    special = (set(shell_prefixes.PREFIXES) | set(shell_prefixes.RUNNERS) | shell_commands.RESERVED
               | shell_commands.SHELLS | set(shell_commands.COMMAND_OPTION) | shell_resolve.DECLARERS
               | bypass_files.WRITERS | bypass_files.DELETERS | bypass_files.COPIERS | bypass_files.MODE_CHANGERS
               | set(bypass_files.IN_PLACE_EDITORS) | {"awk", "gawk", "find", "tar", "bsdtar", "gtar", "unzip", "git",
                                                       "harness", "pre-commit", "eval"})
    assert not quick_allow.READERS & special
    assert not any(r.startswith("python") for r in quick_allow.READERS)


WORDS = ["ls", "cat", "pytest", "rm", "git", "commit", "-n", "-rf", ".harness", ".harness/tasks", "events.jsonl",
         ">", "|", ";", "&&", "$(", ")", "`", "'", '"', "SKIP=harness-validate", "a=b", "~", "*", "#", "\\", "\n",
         "README.md", "hook", "tee", "x", ".git/hooks", "into-harness/events.jsonl", "-la", "sh", "-c"]
PARTS = [".harness", "tasks", "T", "events.jsonl", "local", ".git", "hooks", "config", "src", "..", ".", "README.md",
         "*", "$X", ".pre-commit-config.yaml", "into-harness", "into-hk", "sub", "evidence"]


@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), st.sampled_from([" ", "  "]))
def test_fuzzed_commands_get_the_judge_s_answer(guarded, monkeypatch, words, sep):
    same_answer("claude", str(guarded), "Bash", {"command": sep.join(words)}, monkeypatch)


@given(st.lists(st.sampled_from(PARTS), min_size=1, max_size=5), st.booleans())
def test_fuzzed_edits_get_the_judge_s_answer(guarded, monkeypatch, parts, absolute):
    path = "/".join(parts)
    same_answer("claude", str(guarded), "Write", {"file_path": f"{guarded}/{path}" if absolute else path}, monkeypatch)


def test_an_edit_that_drops_a_framework_hook_is_refused_as_the_judge_refuses_it(guarded, monkeypatch):
    (guarded / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: harness-validate\n    name: validate\n")
    stdout, _, _ = same_answer("claude", str(guarded), "Write",
                               {"file_path": ".pre-commit-config.yaml", "content": "repos: []\n"}, monkeypatch)
    assert '"permissionDecision": "deny"' in stdout
    stdout, _, _ = same_answer("claude", str(guarded / "sub"), "Edit",
                               {"file_path": "../.pre-commit-config.yaml", "old_string": "harness-validate",
                                "new_string": "other"}, monkeypatch)
    assert '"permissionDecision": "deny"' in stdout


def test_a_plain_reader_is_allowed_silently_even_when_the_judge_is_broken(guarded, monkeypatch):
    import harness.agent.judge.bypass as bypass

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("parser exploded")

    monkeypatch.setattr(bypass, "check_shell", broken)
    assert answer("claude", str(guarded), "Bash", {"command": "ls -la"}, True, monkeypatch) == ("", "", 0)
    stdout, _, _ = answer("claude", str(guarded), "Bash", {"command": "ls -la"}, False, monkeypatch)
    assert "parser exploded" in stdout  # the judge, reached, fails open on what it does not cover, saying so


def test_a_nested_repository_s_record_is_left_to_the_judge_which_refuses_it(guarded, monkeypatch):
    # A repository with its own harness inside this one (a vendored clone, a linked worktree under
    # .claude/worktrees/) keeps its record at SUB/.harness/ (#28's task F-0026).
    sub = guarded / "vendor" / "lib"
    sub.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(sub)], check=True)
    (sub / ".harness" / "tasks" / "T").mkdir(parents=True)
    path = "vendor/lib/.harness/tasks/T/events.jsonl"
    assert not answered_quickly(str(guarded), "claude", "Write", {"file_path": path})
    stdout, _, _ = same_answer("claude", str(guarded), "Write", {"file_path": path}, monkeypatch)
    assert '"permissionDecision": "deny"' in stdout


def test_a_path_through_a_symlink_and_back_is_judged_by_its_written_name_too(guarded, monkeypatch):
    # x -> sub/deeper: x/../.harness/... resolves outside .harness, but is written as .harness/... (#28's F-0028).
    (guarded / "sub" / "deeper").mkdir(parents=True, exist_ok=True)
    os.symlink(guarded / "sub" / "deeper", guarded / "x")
    path = "x/../.harness/tasks/T/events.jsonl"
    assert not answered_quickly(str(guarded), "claude", "Write", {"file_path": path})
    same_answer("claude", str(guarded), "Write", {"file_path": path}, monkeypatch)
