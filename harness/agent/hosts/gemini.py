"""Gemini CLI: its own event names (BeforeTool, AfterAgent), `{"decision": "deny"}` answers, named
handlers with timeouts in milliseconds, and a `timestamp` in every payload."""

from __future__ import annotations

from harness.agent.hosts.host import Host, decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EVENTS = {"session-start": "SessionStart", "pre-tool-use": "BeforeTool", "stop": "AfterAgent"}


def _claims(data: dict[str, Any]) -> bool:
    return data.get("hook_event_name") in ("BeforeTool", "AfterAgent") or "timestamp" in data


HOST = Host("gemini", EVENTS, ("run_shell_command",), ("write_file", "replace"),
            (".gemini/settings.json", ".gemini/settings.json"), decision("deny"), decision("deny"), True,
            ".gemini/skills", "",
            ("dir_path", "directory"), _claims,  # `directory`: older Gemini CLI releases
            settings_comments=True)  # it loads settings.json through strip-json-comments (F-0401)
