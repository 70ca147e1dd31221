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
# A folder named .git inside a copied folder is not walked for links: w/v/F/.git/z -> ../../../.harness/tasks leads
# to w/.harness/tasks (nothing); copied to q/F it leads to the record.
mkdir -p q || exit 2
allowed 'mkdir -p w/v/F/.git'; mkdir -p w/v/F/.git || exit 2
allowed 'ln -s ../../../.harness/tasks w/v/F/.git/z'; ln -s ../../../.harness/tasks w/v/F/.git/z || exit 2
check deny 'cp -r w/v/F q/F'
check deny 'cp -a w/v/F q/'
check deny 'mv w/v/F q/F'
exit $fail
