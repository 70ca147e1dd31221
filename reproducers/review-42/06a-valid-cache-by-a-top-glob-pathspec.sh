#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# NEW (F-0035/F-0036's exemption). .harness/local/valid (digests the commit hook trusts without a schema check) is guarded: `echo x >
# .harness/local/valid` and `git checkout REV -- '.harness/local/vali*'` are denied. It is reached unguarded
# (a) through a link inside .harness/local/ (real path in .harness/local, so F-0038's check skips it; the guard
# even lets `ln -s valid .harness/local/v` make one), and (b) by a glob pathspec spelled with `:(top)`, which
# F-0035/F-0036's exemption (head under .harness/local/, read from the top) now lets through.
# Exit 1 while one of these is allowed and writes the cache; 0 when denied.
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
# a branch whose tree holds .harness/local/valid (made by the setup, as a human might have committed it)
( git checkout -qb b && echo 00000000000000000000000000000000 > .harness/local/valid && git add -f .harness/local/valid &&
  git commit -qnm valid && git checkout -q - ) >/dev/null 2>&1 || exit 2
rm -f .harness/local/valid; mkdir -p .harness/local
status=0
for CMD in "git checkout b -- ':(top).harness/local/v*'" \
           "git checkout b -- '.harness/local/vali*'" "echo x >> .harness/local/valid"; do
  rm -f .harness/local/valid .harness/local/v; git rm -q --cached --ignore-unmatch .harness/local/valid >/dev/null 2>&1
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; [ -e .harness/local/valid ] && ch=yes
  echo "guard: $ans; valid cache written: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
