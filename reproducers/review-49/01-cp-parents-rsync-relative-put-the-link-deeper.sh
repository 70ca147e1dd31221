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
# x/y/z -> ../../../../.harness/tasks leads two folders above the repository (nothing). `cp --parents -P x/y/z q/r/`
# puts it at q/r/x/y/z, from where it leads to .harness/tasks; the guard judges it at q/r/z (and q/r) only.
mkdir -p x/y q/r || exit 2
allowed 'ln -s ../../../../.harness/tasks x/y/z'; ln -s ../../../../.harness/tasks x/y/z || exit 2
[ "$(guard 'cp -P x/y/z q/r/x/y/')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp --parents -P x/y/z q/r/'
check deny 'rsync -lR x/y/z q/r/'
check deny 'rsync -l --relative x/y/z q/r/'
exit $fail
