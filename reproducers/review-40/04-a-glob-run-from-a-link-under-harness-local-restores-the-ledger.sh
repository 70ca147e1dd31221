#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by read 41 (of F-0035's fix). The guard now lets a pathspec glob whose head is under .harness/local/
# through, but judges the folder a command runs in as written: from `.harness/local/up`, a link to `..`
# (made with Python; `ln -s` is denied), `git checkout HEAD~1 -- 't*'` is read as `.harness/local/up/t*`, while
# git, in the real folder `.harness`, restores `.harness/tasks/…` from HEAD~1. Before F-0035's fix it was denied.
# Exit 1 while such a command is allowed and rewinds the ledger; 0 when it is denied.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
R=$(mktemp -d) || exit 2; trap 'rm -rf "$R"' EXIT
export HOME="$R/home"; mkdir -p "$HOME"; cd "$R" || exit 2
( git init -q && echo 'x=1' > app.py && git add . && git commit -qm init && harness init ) >/dev/null 2>&1 || exit 2
mkdir -p .harness/tasks/T && echo '{"n":1}' > .harness/tasks/T/events.jsonl && git add -A && git commit -qm one || exit 2
echo '{"n":2}' >> .harness/tasks/T/events.jsonl && git commit -qam two || exit 2
ask() { # the guard's answer for a Bash command run in $R
  python -c 'import json,sys;print(json.dumps({"session_id":"s","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$R" "$1" \
  | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo deny || echo allow; }
python -c 'import os; os.makedirs(".harness/local", exist_ok=True); os.symlink("..", ".harness/local/up")' || exit 2
status=0
for CMD in "cd .harness/local/up && git checkout HEAD~1 -- 't*'" "git -C .harness/local/up checkout HEAD~1 -- 't*'"; do
  git checkout -q HEAD -- .harness/tasks/T/events.jsonl
  ans=$(ask "$CMD"); bash -c "$CMD" 2>/dev/null
  lines=$(wc -l < .harness/tasks/T/events.jsonl)
  echo "guard: $ans; ledger lines after it ran: $lines (HEAD has 2)   $CMD"
  [ "$ans" = allow ] && [ "$lines" = 1 ] && status=1
done
exit $status
