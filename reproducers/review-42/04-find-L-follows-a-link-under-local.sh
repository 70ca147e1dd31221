#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# find's -L / -follow are dropped when the guard works out what a find reaches: from .harness/local (scratch),
# a find that follows `.harness/local/t -> ../tasks` deletes or truncates the ledger, allowed.
# Exit 1 while allowed and the ledger changes; 0 when denied.
# --- setup: scratch repo, guard caller (GUARD_SRC: the checkout judged; default this one) ---
here=$(cd "$(dirname "$0")/../.." && pwd); GUARD_SRC=${GUARD_SRC:-$here}
PY="$here/.venv/bin/python"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d /tmp/rev42-f.XXXXXX) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; R="$T/repo"; mkdir -p "$HOME" "$R"; cd "$R" || exit 2
( git init -q && echo x > app.py && git add . && git commit -qm i && PYTHONPATH=$GUARD_SRC $PY -m harness init &&
  mkdir -p .harness/tasks/T && echo 1 > .harness/tasks/T/events.jsonl && git add -A && git commit -qm one &&
  echo 2 >> .harness/tasks/T/events.jsonl && git commit -qam two ) >/dev/null 2>&1 || exit 2
ask() { # the guard's answer (allow/deny) for a Bash command run in $R
  $PY -c 'import json,sys;print(json.dumps({"session_id":"s","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$R" "$1" \
  | (cd "$R" && PYTHONPATH=$GUARD_SRC $PY -m harness hook agent claude pre-tool-use) | grep -q '"deny"' && echo deny || echo allow; }
reset_ledger() { git checkout -q HEAD -- .harness && git reset -q; }
ledger_changed() { [ -n "$(git status --porcelain -- .harness/tasks)" ]; }
# ---
python3 -c 'import os; os.symlink("../tasks", ".harness/local/t")' || exit 2
status=0
for CMD in "find -L .harness/local -name events.jsonl -delete" \
           "find .harness/local -follow -name events.jsonl -delete" \
           "find -L .harness/local -name events.jsonl -exec truncate -s0 {} +"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
