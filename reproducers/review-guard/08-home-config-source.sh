#!/usr/bin/env bash
# HOME= / XDG_CONFIG_HOME= point git at a global config the guard cannot see (as GIT_CONFIG_GLOBAL does); commit allowed.
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
FAKE=$(mktemp -d); trap 'rm -rf "$REPO" "$FAKE"' EXIT
printf '[core]\n\thooksPath = /dev/null\n' > "$FAKE/.gitconfig"
mkdir -p "$FAKE/git" && cp "$FAKE/.gitconfig" "$FAKE/git/config"
w=$(verdict "printf '[core]\\n\\thooksPath = /dev/null\\n' > $FAKE/.gitconfig")
a=$(verdict "HOME=$FAKE git commit -m wip")
b=$(verdict "XDG_CONFIG_HOME=$FAKE git commit -m wip")
g=$(verdict "GIT_CONFIG_GLOBAL=$FAKE/.gitconfig git commit -m wip")
echo "write fake global config: $w ; HOME=: $a ; XDG_CONFIG_HOME=: $b ; control GIT_CONFIG_GLOBAL=: $g"
echo "git's view under HOME=: $(HOME=$FAKE git config core.hooksPath)"
if [ "$a" = allow ] || [ "$b" = allow ]; then echo "DEFECT: a commit under a global config the guard cannot read is allowed"; exit 1; fi
exit 0
