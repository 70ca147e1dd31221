#!/usr/bin/env bash
# Writing core.hooksPath into .git/config by shell, then 'git commit', both pass the guard: the commit runs no harness hook.
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
fail=0
w=$(verdict "printf '[core]\n\thooksPath = /dev/null\n' >> .git/config")
echo "write .git/config: $w"
# act as the agent whose write was allowed (the guard is what is under test, not git)
printf '[core]\n\thooksPath = /dev/null\n' >> .git/config
c=$(verdict "git commit -m 'wip'")
echo "git commit under hooksPath=/dev/null: $c"
# fixed when either step is denied
if [ "$w" = allow ] && [ "$c" = allow ]; then
  echo "DEFECT: core.hooksPath set through .git/config and a commit that runs no harness hook are both allowed"; exit 1
fi
exit 0
