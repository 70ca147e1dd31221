"""Each host's hook I/O: what its stdin JSON holds, and the exact shape of an answer.

In Claude Code, Codex and Gemini CLI alike only exit 2 blocks, and exit 1 or a crash lets
the action proceed; so every answer here is a JSON decision on exit 0, in the host's own
words (Codex rejects an unknown key in a Stop answer, and an invalid answer blocks nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

HOSTS = ("claude", "codex", "gemini")
# The host's own event name for each of ours.
EVENT_NAMES = {
    "claude": {"session-start": "SessionStart", "pre-tool-use": "PreToolUse", "stop": "Stop"},
    "codex": {"session-start": "SessionStart", "pre-tool-use": "PreToolUse", "stop": "Stop"},
    "gemini": {"session-start": "SessionStart", "pre-tool-use": "BeforeTool", "stop": "AfterAgent"},
}
SHELL_TOOLS = {"claude": {"Bash"}, "codex": {"Bash", "shell", "local_shell", "exec_command"},
               "gemini": {"run_shell_command"}}
EDIT_TOOLS = {"claude": {"Write", "Edit", "MultiEdit", "NotebookEdit"}, "codex": {"apply_patch"},
              "gemini": {"write_file", "replace"}}
PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


@dataclass(frozen=True)
class Payload:
    session_id: str
    cwd: str | None
    tool_name: str = ""
    tool_input: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolAction:
    shell: str | None = None                                  # a command line the tool will run
    writes: tuple[str, ...] = ()                              # files the tool will write or delete
    workdir: str | None = None                                # where the shell runs, when not the session's cwd
    deletes: tuple[str, ...] = ()                             # files a patch deletes


@dataclass(frozen=True)
class Reply:
    stdout: str = ""
    stderr: str = ""
    code: int = 0


def detect_host(data: dict[str, Any]) -> str:
    """For the plugin hooks file all hosts share: the event names and fields tell them apart.
    Claude Code and Codex accept the same answer shapes for these events, so a wrong guess
    between the two answers correctly anyway."""
    if data.get("hook_event_name") in ("BeforeTool", "AfterAgent") or "timestamp" in data:
        return "gemini"
    if "turn_id" in data or data.get("tool_name") == "apply_patch":
        return "codex"
    return "claude"


def read_payload(raw: str) -> dict[str, Any]:
    data = json.loads(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the hook input is not a JSON object")
    return data


def payload(data: dict[str, Any]) -> Payload:
    tool_input = data.get("tool_input")
    return Payload(session_id=str(data.get("session_id") or "unknown-session"),
                   cwd=data.get("cwd") if isinstance(data.get("cwd"), str) else None,
                   tool_name=str(data.get("tool_name") or ""),
                   tool_input=tool_input if isinstance(tool_input, dict) else {})


def tool_action(host: str, p: Payload) -> ToolAction:
    """What a tool call will do, in terms the denier judges; unknown tools do nothing it guards."""
    name, ti = p.tool_name, p.tool_input
    if name in SHELL_TOOLS[host] or (name in ("Bash", "run_shell_command")):
        command = ti.get("command")
        if isinstance(command, list):  # Codex's exec tools pass argv
            import shlex

            command = shlex.join(str(c) for c in command)
        # Codex names the directory `workdir`, Gemini `dir_path` (older: `directory`).
        workdir = next((ti[k] for k in ("workdir", "dir_path", "directory") if isinstance(ti.get(k), str)), None)
        return ToolAction(shell=command if isinstance(command, str) else "", workdir=workdir)
    if name in EDIT_TOOLS[host] or name in ("Write", "Edit", "MultiEdit", "write_file", "replace", "apply_patch"):
        if name == "apply_patch":
            text = ti.get("command") or ti.get("input") or ti.get("patch") or ""
            if isinstance(text, list):
                text = "\n".join(str(t) for t in text)
            return ToolAction(writes=tuple(_patch_paths(str(text))),
                              deletes=tuple(_patch_paths(str(text), ("*** Delete File: ",))))
        path = ti.get("file_path") or ti.get("notebook_path") or ti.get("path")
        return ToolAction(writes=(path,) if isinstance(path, str) else ())
    return ToolAction()


def _patch_paths(text: str, headers: tuple[str, ...] = PATCH_HEADERS) -> list[str]:
    out = []
    for line in text.splitlines():
        for header in headers:
            if line.startswith(header):
                out.append(line[len(header):].strip())
    return out


# -- answers ------------------------------------------------------------------------------

def _json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def context(host: str, text: str, message: str | None = None) -> Reply:
    """Session start: text the model reads first (same shape in all three hosts)."""
    out: dict[str, Any] = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": text}
    if message:
        out["systemMessage"] = message
    return Reply(_json(out) if out else "")


def deny(host: str, reason: str) -> Reply:
    if host == "gemini":
        return Reply(_json({"decision": "deny", "reason": reason}))
    return Reply(_json({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                               "permissionDecisionReason": reason}}))


def allow(host: str, message: str | None = None) -> Reply:
    """Let the action proceed; a message, when there is one, is shown to the user."""
    return Reply(_json({"systemMessage": message}) if message else "")


def block_stop(host: str, reason: str) -> Reply:
    if host == "gemini":
        return Reply(_json({"decision": "deny", "reason": reason}))
    return Reply(_json({"decision": "block", "reason": reason}))
