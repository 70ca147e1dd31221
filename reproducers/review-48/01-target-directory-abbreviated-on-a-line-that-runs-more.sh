#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
repo="$tmp/repo"; mkdir -p "$repo" && cd "$repo" || exit 2
{ git init -q && git config user.email a@b.c && git config user.name a && echo 'x = 1' > app.py \
  && git add -A && git commit -qm init && harness init >/dev/null 2>&1; } || { echo "setup failed"; exit 2; }
mkdir -p .harness/tasks/T .harness/local && echo '{}' > .harness/tasks/T/events.jsonl && : > .harness/local/valid || exit 2
guard() {  # prints deny or allow for a Bash command
  python3 - "$repo" "$1" <<'PY' | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": sys.argv[2]}}))
PY
}
# .harness/local/abs -> the record by its absolute path (the clone's scratch may hold such a link). Copied as a link
# on a line that runs more, the next command's path through the copy is judged by its text (read 43's A).
ln -s "$repo/.harness" .harness/local/abs && mkdir d || exit 2
[ "$(guard 'cp -a -t d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl')" = deny ] || { echo "setup: control not refused"; exit 2; }
fail=0
for cmd in 'cp -a --target=d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
