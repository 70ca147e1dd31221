"""Claude Code: the events and answer shapes the others were modelled on; the host assumed when a
payload carries no mark of another (`claims` is None)."""

from harness.agent.hosts.host import CLAUDE_EVENTS, Host

HOST = Host("claude", CLAUDE_EVENTS, ("Bash",), ("Write", "Edit", "MultiEdit", "NotebookEdit"),
            (".claude/settings.json", ".claude/settings.json"), False, "block", False, ".claude/skills", "")
