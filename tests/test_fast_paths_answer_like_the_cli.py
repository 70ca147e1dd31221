"""The entry point's fast paths (answered before click is imported, bashlex's tables from a cache)
give exactly the answers of the full CLI: the agent guard's table and the CLI's outputs, run both ways
in real processes and compared byte for byte (stdout, stderr, exit code)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# `python -m harness` enters through harness.cli.launch (the fast paths); this enters click's main().
FAST = [sys.executable, "-m", "harness"]
FULL = [sys.executable, "-c", "import sys; from harness.cli.main import main; sys.exit(main())"]

SHELL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}
EDIT = {"claude": ("Edit", "file_path"), "codex": ("apply_patch", None), "gemini": ("write_file", "file_path")}
COMMANDS = ["ls -la", "pytest -q tests", "git status", "git commit --no-verify -m wip",
            "cd src && git commit -qn -m 'x'", "SKIP=harness-validate git commit -m x", "rm -rf .harness",
            "echo $(git push --no-verify)", "cat > .harness/tasks/T/events.jsonl", "harness approve gate-change",
            "[[ -f x ]] && git commit -n -m x", "echo 'unbalanced", "git notes --ref harness add -m x HEAD"]
CRASH_LOG = re.compile(r"crash-[0-9TZ.]+-[0-9]+\.log")
PATHS = ["README.md", ".harness/tasks/T/events.jsonl", ".harness/local/scratch", "src/../.harness/approvals.jsonl"]


def run(prefix: list[str], args: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> tuple:
    p = subprocess.run([*prefix, *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=300)
    # A crash log is named after its time and process: the one part two runs cannot share.
    return CRASH_LOG.sub("crash-LOG.log", p.stdout), CRASH_LOG.sub("crash-LOG.log", p.stderr), p.returncode


def env_with_cache(folder: Path) -> dict[str, str]:
    """The parser tables' folder at ``folder``: a folder keeps bashlex's tables, a file makes the cache unusable."""
    return {**os.environ, "HARNESS_PARSER_TABLES": str(folder)}


def tool_calls(cwd: Path) -> list[tuple[str, dict]]:
    calls: list[tuple[str, dict]] = []
    for host in ("claude", "codex", "gemini"):
        calls += [(host, {"tool_name": SHELL[host], "tool_input": {"command": c}}) for c in COMMANDS]
        tool, key = EDIT[host]
        for path in PATHS:
            ti = {key: path, "content": "x"} if key else {"command": f"*** Begin Patch\n*** Update File: {path}\n"}
            calls.append((host, {"tool_name": tool, "tool_input": ti}))
        calls.append((host, {"tool_name": "Read", "tool_input": {"file_path": "README.md"}}))
    calls.append(("auto", {"tool_name": "Bash", "tool_input": {"command": "git commit -n -m x"}}))
    calls.append(("claude", {"tool_name": "Bash", "tool_input": ["not", "an", "object"]}))
    return [(host, {"session_id": "s1", "cwd": str(cwd), **call}) for host, call in calls]


def test_the_guard_answers_every_tool_call_as_the_cli_does(tmp_path, h, task, repo):
    warm, broken = tmp_path / "cache", tmp_path / "not-a-folder"
    broken.write_text("a file where the cache folder would be")
    checked = 0
    for host, call in tool_calls(repo):
        args = ["hook", "agent", host, "pre-tool-use"]
        stdin = json.dumps(call)
        fast = run(FAST, args, repo, env_with_cache(warm), stdin)
        full = run(FULL, args, repo, env_with_cache(broken), stdin)  # bashlex builds its own tables
        assert fast == full, (host, call)
        checked += bool(fast[0])
    assert checked > 10  # the table holds denials and messages, not only silent allows
    for raw in ("not json", "[1, 2]", ""):
        args = ["hook", "agent", "claude", "pre-tool-use"]
        assert run(FAST, args, repo, env_with_cache(warm), raw) == run(FULL, args, repo, env_with_cache(broken), raw)


@pytest.mark.parametrize("args", [["hook", "agent", "claude", "session-start"], ["hook", "agent", "codex", "stop"],
                                  ["hook", "agent", "gemini", "stop"], ["hook", "agent", "nohost", "stop"],
                                  ["hook", "agent", "claude", "--help"], ["status"], ["status", "--json"],
                                  ["--version"], ["--version", "status"]])
def test_the_cli_s_outputs_are_the_same_through_either_entry(tmp_path, h, task, repo, args):
    event = json.dumps({"session_id": "s2", "cwd": str(repo)})
    env = env_with_cache(tmp_path / "cache")
    assert run(FAST, args, repo, env, event) == run(FULL, args, repo, env, event)


def _to_a_closed_pipe(prefix: list[str], args: list[str], cwd: Path, both: bool) -> tuple[bytes, int]:
    """(stderr, exit code) of ``args`` whose stdout (``both``: and stderr) is a pipe whose reader already went."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([*prefix, *args], stdout=w, stderr=w if both else subprocess.PIPE, cwd=cwd, timeout=300)
    finally:
        os.close(w)
    return p.stderr or b"", p.returncode


@pytest.mark.parametrize("args, both", [(["--version"], False), (["status"], False), (["status", "--json"], False),
                                        (["evidence", "custom", "--", "sh", "-c", "exit 3"], True)])
def test_a_reader_that_went_away_is_answered_as_the_cli_answers_it(h, task, repo, args, both):
    # Read 125's F-0447, F-0448: a pipe closed early (`harness status | head -1`) was exit 0 on the fast paths (a failed
    # recording's too) and a traceback from --version; click answers every command with exit 1, quietly.
    assert _to_a_closed_pipe(FAST, args, repo, both) == _to_a_closed_pipe(FULL, args, repo, both) == (b"", 1)


def test_a_lock_wait_that_runs_out_is_said_once_as_the_cli_says_it(h, task, repo):
    # Read 125's F-0446: the fast path said the wait, gave up, and handed the command to click, which waited and said
    # it again: twice the words and twice the wait.
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time\n"
                               "fd = os.open('.harness/local/lock', os.O_RDWR)\n"
                               "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(120)"],
                              cwd=repo, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        env = {**os.environ, "HARNESS_LOCK_TIMEOUT": "2.5"}  # past the 2 s after which a wait is said
        fast, full = run(FAST, ["status"], repo, env), run(FULL, ["status"], repo, env)
    finally:
        holder.kill()
        holder.wait()
    assert fast == full and full[2] == 2 and full[1].count("waiting for the lock") == 1, (fast, full)


def _root_listed_twice(repo: Path) -> str:
    """HEAD's root tree with a second `a.txt` entry (git fsck: duplicateEntries), written by hand."""
    def git(*args: str, data: bytes | None = None) -> bytes:
        return subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, check=True).stdout

    (repo / "a.txt").write_text("a\n")
    git("add", "a.txt")
    git("commit", "-qm", "a.txt", "--no-verify")
    oid = bytes.fromhex(git("rev-parse", "HEAD:a.txt").decode().strip())
    raw = git("cat-file", "tree", "HEAD^{tree}") + b"100644 a.txt\0" + oid
    return git("hash-object", "-t", "tree", "--literally", "-w", "--stdin", data=raw).decode().strip()


@pytest.mark.parametrize("where", ["staged", "head"])
def test_a_code_only_commit_is_judged_alike_by_either_path_whatever_its_roots(h, task, repo, where):
    # Read 128's F-0455: the fast path answers a code-only commit from the `.harness` entries alone; the full path
    # refused it when the committed root, or HEAD's, listed a name twice. A code-only commit leaves the commit check
    # nothing to judge on both paths; such a root is the push guard's, CI's and the server's to refuse (fsck-clean-tree).
    bad = _root_listed_twice(repo)
    if where == "staged":
        subprocess.run(["git", "read-tree", bad], cwd=repo, check=True)
    else:
        head = subprocess.run(["git", "commit-tree", bad, "-p", "HEAD", "-m", "dup"], cwd=repo, capture_output=True,
                              text=True, check=True).stdout.strip()
        subprocess.run(["git", "reset", "-q", "--hard", head], cwd=repo, check=True)
        (repo / "code.py").write_text("x = 1\n")
        subprocess.run(["git", "add", "code.py"], cwd=repo, check=True)
    env = dict(os.environ)
    assert run(FAST, ["hook", "validate"], repo, env) == run(FULL, ["hook", "validate"], repo, env) == ("", "", 0)
    if where == "head":
        audit = run(FULL, ["audit", "--from", "HEAD~1", "--to", "HEAD"], repo, env)
        assert audit[2] == 1 and "[fsck-clean-tree]" in audit[0] + audit[1], audit
