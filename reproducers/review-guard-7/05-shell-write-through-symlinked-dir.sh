#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0028 made the Write/Edit quick path check a path by its real name as well as the name it is written under:
# the Write tool to h/tasks/T/events.jsonl (h -> .harness) is refused. The Bash judge does not: after
# `ln -s .harness h` (allowed), `echo ... >> h/tasks/T/events.jsonl`, `sed -i ... h/...` and `truncate` on the
# ledger through h are ALLOWED, while the same words on .harness/tasks/T/events.jsonl are refused.
# Each is checked to really change the ledger. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
hk() { # the guard's decision for a Bash command run in $R, through the hook's CLI
  python - "$R" "$1" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
[ "$(hk "echo x >> $L")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
a=$(hk "ln -s .harness h"); echo "guard: $a : ln -s .harness h"; ln -s .harness h || exit 2
fail=0
for c in "echo '{}' >> h/tasks/$TID/events.jsonl" "sed -i '\$d' h/tasks/$TID/events.jsonl" "truncate -s 0 h/tasks/$TID/events.jsonl"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed when run: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a shell command writes the ledger through a symlinked folder; the guard allows it"
exit $fail
