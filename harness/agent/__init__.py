"""Agent hooks: Claude Code, Codex and Gemini CLI at the agent's own decision points."""
