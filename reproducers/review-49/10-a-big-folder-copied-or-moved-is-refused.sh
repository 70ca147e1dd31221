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
# Since 223357c a copy or move whose walk passes 20,000 entries is refused, though alone on its line, holding no link:
# `cp -r src build`, `mv src dist`, `mv node_modules node_modules.bak`, `cp -a .venv /tmp/v` in a project that size.
mkdir -p src || exit 2
python3 -c "
import os
for d in range(101):
    os.makedirs(f'src/d{d}', exist_ok=True)
    for f in range(200): open(f'src/d{d}/f{f}.py', 'w').close()
" || exit 2
check allow 'cp -r src build'
check allow 'mv src dist'
check allow 'cp -a src /tmp/elsewhere'
check allow 'rsync -a src/ dest/'
exit $fail
