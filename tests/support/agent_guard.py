"""Asking the agent's tool guard about one tool call, as a host does: `harness hook agent claude pre-tool-use`
in its own process, the call as JSON on stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def guard_answer(cwd: Path, tool: str, tool_input: dict) -> str:
    """"deny" or "allow" (a silent allow, or one with a message), for ``tool`` called with ``tool_input`` in ``cwd``."""
    return "deny" if '"deny"' in guard_output(cwd, tool, tool_input) else "allow"


def guard_output(cwd: Path, tool: str, tool_input: dict) -> str:
    """What the guard prints for ``tool`` called with ``tool_input`` in ``cwd`` (Claude Code's answer JSON)."""
    call = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": tool_input}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"], cwd=cwd,
                       input=json.dumps(call), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout
