"""Codex: Claude Code's event names and answer shapes; a shell tool under several names (it also sends
Claude Code's `Bash`), patches through `apply_patch`, project hooks only where the user trusts them.

Its PreToolUse input for a shell call is the command and the turn's cwd, never the call's `workdir`
(openai/codex shell_command.rs pre_tool_use_payload): the model may run the line in any folder, so the
guard cannot take the cwd for where it runs (`hides_shell_folder`; F-0375)."""

from __future__ import annotations

from harness.agent.hosts.host import CLAUDE_EVENTS, Host, decision, permission_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _claims(data: dict[str, Any]) -> bool:
    return "turn_id" in data or data.get("tool_name") == "apply_patch"


HOST = Host("codex", CLAUDE_EVENTS, ("Bash", "shell", "local_shell", "exec_command"), ("apply_patch",),
            (".codex/hooks.json", ".codex/hooks.json"), permission_decision, decision("block"), False, ".agents/skills",
            "Codex runs project hooks only in trusted projects, with hooks enabled in its config",
            (), _claims, "CODEX_HOME", hides_shell_folder=True)
