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
# GNU cp/mv/ln/install take options after operands; destination() reads the last non-dash word, so the value of a
# trailing `-S SUFFIX` / `--suffix SUFFIX` / install's `-m MODE` is taken for the destination.
mkdir -p a/b || exit 2
allowed 'ln -s ../.harness/tasks a/b/z'; ln -s ../.harness/tasks a/b/z || exit 2
[ "$(guard 'cp app.py .git/hooks/pre-commit')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp app.py .git/hooks/pre-commit -S .b'
check deny 'cp app.py .harness/tasks/T/events.jsonl --suffix .bak'
check deny 'install app.py .harness/tasks/T/events.jsonl -m 644'
check deny "cp -P a/b/z a -S '~'"
check deny "mv a/b/z a --suffix '~'"
exit $fail
