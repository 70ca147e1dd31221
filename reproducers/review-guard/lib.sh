# Shared by the review-guard reproducers: a scratch repository with the harness installed and a task
# started, and verdict CMD, which prints deny|allow for a Claude Code Bash payload run there.
set -u
H=$(command -v harness)
[ -n "$H" ] || { echo "setup: no harness on PATH"; exit 2; }
REPO=$(mktemp -d)
trap 'rm -rf "$REPO"' EXIT
cd "$REPO"
git init -q . && git config user.email r@example.com && git config user.name r
"$H" init >/dev/null 2>&1 && "$H" install >/dev/null 2>&1 && "$H" task new "demo" >/dev/null 2>&1
TASK=$(ls .harness/tasks | head -1)
LEDGER=.harness/tasks/$TASK/events.jsonl
git add -A && git commit -q -m "start task" >/dev/null 2>&1 || git commit -qn -m "start task"
# verdict CMD -> prints deny|allow for a Claude Bash payload run in $REPO
verdict() {
  local json out
  json=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' "$1" "$REPO")
  out=$(printf '%s' "$json" | "$H" hook agent claude pre-tool-use 2>/dev/null)
  if printf '%s' "$out" | grep -q '"permissionDecision": *"deny"'; then echo deny; else echo allow; fi
}
