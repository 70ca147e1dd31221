#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by read 41 (older than F-0035). The guard spells a word by its real path when a symlink leads it into
# .harness/ or .git/ (harness/agent/real_names.py, #28's task F-0050), but not when the word is written inside
# .harness/ already: through `.harness/local/up`, a link to `..` (made with Python; `ln -s` is denied), a write
# to `.harness/local/up/tasks/T/events.jsonl`, or a checkout run from that folder, reaches the ledger and is
# allowed (a top-level link `h -> .harness` is caught).
# Exit 1 while one of these is allowed; 0 when all are denied.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
R=$(mktemp -d) || exit 2; trap 'rm -rf "$R"' EXIT
export HOME="$R/home"; mkdir -p "$HOME"; cd "$R" || exit 2
( git init -q && echo 'x=1' > app.py && git add . && git commit -qm init && harness init ) >/dev/null 2>&1 || exit 2
mkdir -p .harness/tasks/T && echo '{"n":1}' > .harness/tasks/T/events.jsonl && git add -A && git commit -qm one || exit 2
echo '{"n":2}' >> .harness/tasks/T/events.jsonl && git commit -qam two || exit 2
python -c 'import os; os.makedirs(".harness/local", exist_ok=True); os.symlink("..", ".harness/local/up")' || exit 2
ask() { # the guard's answer for a Bash command run in $R
  python -c 'import json,sys;print(json.dumps({"session_id":"s","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$R" "$1" \
  | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo deny || echo allow; }
status=0
for CMD in "echo x >> .harness/local/up/tasks/T/events.jsonl" "cd .harness/local/up && echo x >> tasks/T/events.jsonl" \
           "cd .harness/local/up && git checkout HEAD~1 -- tasks/T/events.jsonl" \
           "git -C .harness/local/up checkout HEAD~1 -- tasks/T/events.jsonl"; do
  ans=$(ask "$CMD"); echo "guard: $ans   $CMD"; [ "$ans" = allow ] && status=1
done
exit $status
