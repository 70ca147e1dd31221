#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# No Python, no link beforehand: `ln -s "$PWD/.harness/local" .harness/local/d/s` is allowed (its target is the
# scratch folder), and on the same line `.harness/local/d/s/..` is read textually as .harness/local (scratch)
# while the kernel, and git -C / cd -P, resolve it physically to .harness. F-0038's real-path check cannot see a
# link that does not exist yet when the line is judged.
# Exit 1 while such a line is allowed and writes the ledger or a git hook; 0 when all are denied.
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
MK='mkdir -p .harness/local/d && ln -s "$PWD/.harness/local" .harness/local/d/s'
status=0
for CMD in "$MK && echo x >> .harness/local/d/s/../tasks/T/events.jsonl" \
           "$MK && git -C .harness/local/d/s/.. checkout HEAD~1 -- tasks/T/events.jsonl" \
           "$MK && cd -P .harness/local/d/s/.. && git checkout HEAD~1 -- tasks/T/events.jsonl" \
           "$MK && printf '#!/bin/sh\nexit 0\n' > .harness/local/d/s/../../.git/hooks/pre-commit"; do
  reset_ledger; rm -rf .harness/local/d; before=$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=ledger; [ "$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)" != "$before" ] && ch=hook
  echo "guard: $ans; changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch != no ] && status=1
done
exit $status
