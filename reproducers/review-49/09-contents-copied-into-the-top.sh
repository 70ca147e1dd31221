#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
repo="$tmp/repo"; mkdir -p "$repo" && cd "$repo" || exit 2
{ git init -q && git config user.email a@b.c && git config user.name a && echo 'x = 1' > app.py \
  && git add -A && git commit -qm init && harness init >/dev/null 2>&1; } || { echo "setup failed"; exit 2; }
mkdir -p .harness/tasks/T .harness/local && echo '{}' > .harness/tasks/T/events.jsonl && : > .harness/local/valid || exit 2
guard() {  # prints deny or allow for a Bash command run in $2 (default: the repository's top)
  python3 - "${2:-$repo}" "$1" <<'PY' | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": sys.argv[2]}}))
PY
}
allowed() { [ "$(guard "$@")" = allow ] || { echo "setup: refused: $1"; exit 2; }; }
check() {  # want cmd [cwd]
  a=$(guard "$2" "${3:-$repo}"); echo "$a (want $1): $2"; [ "$a" = "$1" ] || fail=1
}
fail=0
# A folder's contents copied into the top overwrite the record: `cp -rT d .` is refused, not `--no-target-directory`
# abbreviated, nor rsync's trailing-slash source (its way of saying "the contents").
mkdir -p d/.harness/tasks/T && echo forged > d/.harness/tasks/T/events.jsonl || exit 2
[ "$(guard 'cp -r --no-target-directory d .')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp -r --no-t d .'
check deny 'cp -a --no-target-dir d .'
check deny 'rsync -a d/ .'
exit $fail
