#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# False positive from F-0038's fix: removing or moving a link that lies under .harness/local/ (the clone's
# scratch) deletes only the link, yet is now denied as "deleting .harness/tasks would erase the harness's
# record" — the word is judged by its real path, the link's target. At 154eaf0 these were allowed.
# (Removing the stray link is what one would do on finding it.)
# Exit 1 while any of these is denied; 0 when all are allowed. Each is checked to leave the record intact.
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
status=0
for CMD in "rm .harness/local/t" "rm -f .harness/local/up" "unlink .harness/local/t" "mv .harness/local/up .harness/local/up.old"; do
  rm -f .harness/local/t .harness/local/up .harness/local/up.old
  python3 -c 'import os; os.symlink("../tasks", ".harness/local/t"); os.symlink("..", ".harness/local/up")' || exit 2
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  [ -n "$(git status --porcelain -- .harness)" ] && { echo "record changed by: $CMD"; exit 2; }
  echo "guard: $ans; record unchanged   $CMD"
  [ "$ans" = deny ] && status=1
done
exit $status
