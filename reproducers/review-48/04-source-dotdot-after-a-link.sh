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
[ "$(guard 'ln -s ../.harness/tasks w/tk')" = deny ] || { echo "setup: the guard does not refuse the plain ln -s"; exit 2; }
# q -> w/sub: `q/../x/tk` is w/x/tk to the kernel (q/.. is w), x/tk to the guard's text, which then takes the copy
# into x/ for one "in its own folder".
mkdir -p w/x w/sub x && ln -s ../.harness/tasks w/x/tk && ln -s w/sub q || exit 2
[ "$(guard 'mv w/x/tk x/')" = deny ] || { echo "setup: control not refused"; exit 2; }
fail=0
for cmd in 'mv q/../x/tk x/' 'cp -P q/../x/tk x/tk' 'cp -a q/../x/tk x/'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
