#!/usr/bin/env bash
# Defect: Claude Code's `Monitor` tool runs a shell command (tool_input.command, checked by Claude Code
#   "like Bash"; code.claude.com/docs/en/tools-reference lists it: "Monitor | Runs a command in the
#   background ... | Permission Required: Yes"; in @anthropic-ai/claude-code 2.1.197 sdk-tools.d.ts
#   `MonitorInput { command?: string; description; timeout_ms; persistent }`). The harness does not know it:
#   harness/agent/hosts/claude.py lists shell tools ("Bash",) only, so (1) `harness agent install --host
#   claude` (hook_settings.entries -> hosts.matcher) writes the PreToolUse matcher
#   "Bash|Write|Edit|MultiEdit|NotebookEdit", which Claude Code never matches against "Monitor" (the hook is
#   not even run), and (2) even when the payload reaches the guard, hosts.tool_action() treats "Monitor" as an
#   unknown tool and allows it. So `git commit --no-verify` or `echo >> .harness/tasks/*/events.jsonl` goes
#   through Monitor unguarded while the same line through Bash is denied. (PowerShell, the opt-in shell tool
#   on Windows, is missed the same way.)
# Correct: the Monitor tool's command is judged as a Bash command is (deny), and the installed matcher
#   (and the plugin's hooks/hooks.json) sends Monitor calls to the guard.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
harness agent install --host claude >/dev/null 2>&1 || exit 2

payload() {  # the PreToolUse input Claude Code sends (hooks reference: session_id, transcript_path, cwd, ...)
  python3 - "$R" "$1" "$2" <<'PY'
import json, sys
cwd, tool, cmd = sys.argv[1:4]
ti = {"command": cmd, "description": "d"}
if tool == "Monitor":
    ti.update({"timeout_ms": 300000, "persistent": False})
print(json.dumps({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": cwd, "permission_mode": "default",
                  "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": ti, "tool_use_id": "toolu_1"}))
PY
}
denied() { payload "$1" "$2" | harness hook agent claude pre-tool-use | grep -q '"permissionDecision": "deny"'; }

fail=0
for cmd in "git commit --no-verify -m x" "echo '{}' >> .harness/tasks/t/events.jsonl"; do
  denied Bash "$cmd" || { echo "setup: control failed, Bash '$cmd' is not denied"; exit 2; }
  if denied Monitor "$cmd"; then echo "ok: Monitor '$cmd' denied"
  else echo "DEFECT: Bash '$cmd' is denied, the same command through Claude Code's Monitor tool is allowed"; fail=1; fi
done
# Does the installed matcher send Monitor calls to the hook at all? (Claude Code: matcher is a regex on tool_name)
python3 - "$R/.claude/settings.json" "$here/hooks/hooks.json" <<'PY' || fail=1
import json, re, sys
bad = 0
for f in sys.argv[1:]:
    groups = json.load(open(f))["hooks"]["PreToolUse"]
    ours = [g for g in groups if any("hook agent" in h.get("command", "") for h in g["hooks"])]
    m = [g.get("matcher", "") for g in ours]
    if not any(x in ("", "*") or re.fullmatch(x, "Monitor") for x in m):
        print(f"DEFECT: {f}: PreToolUse matcher {m} never matches Claude Code's Monitor tool; the guard is not run")
        bad = 1
sys.exit(bad)
PY
exit $fail
