"""Claude Code: the events and answer shapes the others were modelled on; the host assumed when a
payload carries no mark of another (`claims` is None).

Three tools run a command line: `Bash`; `Monitor`, which runs one in the background and streams its
output back (`MonitorInput {command?, description, timeout_ms, persistent}`); and the opt-in
`PowerShell`, whose line is judged as bash reads it (harness.agent.judge.powershell_words; F-0372)."""

from harness.agent.hosts.host import CLAUDE_EVENTS, Host, decision, permission_decision

POWERSHELL = "PowerShell"

HOST = Host("claude", CLAUDE_EVENTS, ("Bash", "Monitor", POWERSHELL), ("Write", "Edit", "MultiEdit", "NotebookEdit"),
            (".claude/settings.json", ".claude/settings.json"), permission_decision, decision("block"), False, ".claude/skills", "",
            home_env="CLAUDE_CONFIG_DIR")  # set, every ~/.claude path lives under it: settings.json, skills/ (F-0400)
