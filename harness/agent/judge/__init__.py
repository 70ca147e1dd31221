"""The agent hooks' pure rules: what a tool call may do to the harness's record and hooks, and when the agent may stop."""
