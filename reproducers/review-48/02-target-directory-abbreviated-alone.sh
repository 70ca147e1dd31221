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
# A link that leads nowhere where it is: w/x/tk -> ../.harness/tasks (w/.harness/tasks). Moved up into w/ it names the record.
mkdir -p w/x && ln -s ../.harness/tasks w/x/tk || exit 2
fail=0
for cmd in 'cp -P -t w w/x/tk' 'cp -P --target-directory=w w/x/tk'; do   # controls: refused today
  [ "$(guard "$cmd")" = deny ] || { echo "setup: control not refused: $cmd"; exit 2; }
done
# GNU getopt takes any unambiguous prefix of a long option: --target=, --target-dir=, --t=
for cmd in 'cp -P --target=w w/x/tk' 'cp -a --target-dir=w w/x/tk' 'mv --target=w w/x/tk' 'mv --t w w/x/tk' 'ln --target=w w/x/tk' ; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
