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
# a/b/z -> ../.harness/tasks leads to a/.harness/tasks; moved up to a/ it leads to the record. Spelled with $PWD
# (a common absolute spelling), the source is skipped and the destination judged as a folder named `$PWD/a`.
mkdir -p a/b || exit 2
allowed 'ln -s ../.harness/tasks a/b/z'; ln -s ../.harness/tasks a/b/z || exit 2
[ "$(guard 'mv a/b/z a/')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'mv "$PWD/a/b/z" a/'
check deny 'mv a/b/z "$PWD/a/"'
check deny 'cp -P "$PWD"/a/b/z "$PWD/a/"'
exit $fail
