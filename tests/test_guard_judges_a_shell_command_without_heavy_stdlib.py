"""The agent guard judges the shell commands it must read (a commit, a delete in `.harness/`, any other)
without the standard library it used to load and never used: typing, pathlib, json, subprocess, hashlib,
dataclasses, and inspect's code (its module is deferred: ast, dis and tokenize stay unloaded). Asked of a real process,
as test_layering.py asks it of the other fast paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# It imports no more than atexit and sys itself, so that what the guard must not load can be asked.
LOADED = ("import atexit, sys\n"
          "out = sys.argv.pop(1)\n"
          "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
          "from harness.cli.launch import entry\n"
          "entry()\n")
NEVER = {"typing", "pathlib", "json", "subprocess", "hashlib", "contextlib", "ast", "dis", "tokenize",
         "urllib.parse", "ipaddress", "importlib.util", "yaml", "click", "pygit2",
         "dataclasses"}  # the rules are harness.core.value_class's classes: no code generated per import


def loaded_by(cwd: Path, call: dict) -> tuple[set[str], str]:
    out = cwd / ".loaded"
    proc = subprocess.run([sys.executable, "-c", LOADED, str(out), "hook", "agent", "claude", "pre-tool-use"],
                          input=json.dumps(call), cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(out.read_text().splitlines()), proc.stdout


# Lines a plain reading cannot take (harness.agent.judge.plain_line): bashlex reads them. Plain lines are judged
# without it (tests/test_guard_reads_plain_lines_without_bashlex.py).
READ_BY_BASHLEX = {'git commit -n -m "$(cat msg)"', "rm -rf .harness/$T", 'rm -rf "$BUILD_DIR"'}


@pytest.mark.parametrize(("command", "denied"), [("rm -rf .harness/tasks", True),
                                                 ("git add -A && git commit -n -m x", True),
                                                 ("rm -rf build", False),
                                                 ('git commit -n -m "$(cat msg)"', True),
                                                 ("rm -rf .harness/$T", True),
                                                 ('rm -rf "$BUILD_DIR"', False)])
def test_a_judged_shell_command_loads_none_of_it(h, repo, command, denied):
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": command}}
    loaded, answer = loaded_by(repo, call)
    assert {"harness.agent.judge.bypass", "harness.core.value_class"} <= loaded
    assert ("bashlex" in loaded) == (command in READ_BY_BASHLEX), command
    assert not loaded & NEVER, loaded & NEVER
    assert ("permissionDecision" in answer) == denied
