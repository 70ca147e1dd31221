#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A hard link gives the ledger a second name that no path resolution (realpath, F-0028's "name written under and
# real name") can tell from any other file. `ln .harness/tasks/T/events.jsonl notes.txt` (or `cp -l`) is ALLOWED
# by the guard, and then the Write tool, the Edit tool and `echo >> notes.txt` / `truncate` rewrite the ledger
# freely (the shell certainly; the Write tool when it writes in place). Checked to really change the ledger. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
decide() { # the guard's decision for a tool call (tool name, input as JSON) run in $R, through the hook's CLI
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": sys.argv[2], "tool_input": json.loads(sys.argv[3])}))
PY
}
hk() { decide Bash "$(python -c 'import json,sys; print(json.dumps({"command": sys.argv[1]}))' "$1")"; }
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
[ "$(decide Write "{\"file_path\": \"$R/$L\", \"content\": \"x\\n\"}")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for ln in "ln $L notes.txt" "cp -l $L notes.txt"; do
  rm -f notes.txt; git checkout -q HEAD -- "$L"
  a=$(hk "$ln"); echo "guard: $a : $ln"; eval "$ln" || exit 2
  [ "$a" = allow ] || continue
  before=$(git hash-object "$L")
  w=$(decide Write "{\"file_path\": \"$R/notes.txt\", \"content\": \"{}\\n\"}"); echo '{}' > notes.txt
  after=$(git hash-object "$L"); echo "guard: $w  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : Write tool to notes.txt"
  # (informational: a Write tool that replaces the file by rename would break the link; the shell below does not)
  git checkout -q HEAD -- "$L"; rm -f notes.txt; eval "$ln"; before=$(git hash-object "$L")
  c="truncate -s 0 notes.txt"; b=$(hk "$c"); eval "$c"; after=$(git hash-object "$L")
  echo "guard: $b  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$b" = allow ] && [ "$before" != "$after" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a hard link to the ledger lets the Write tool and the shell rewrite it; the guard allows both"
exit $fail
