#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0030 made the guard refuse a replace ref or the stamps' notes ref written by `update-ref --stdin`, by
# `git fetch|push . SRC:refs/replace/X` and by symbolic-ref. The same refs are written, and the guard ALLOWS it:
#  - as a loose ref file under .git/refs/ (a shell redirect, or the Write tool),
#  - by `git fetch --refmap=+refs/heads/*:refs/replace/* . BRANCH` (the destination is in an option, not a refspec),
#  - by a remote whose configured fetch refspec names refs/replace/ or refs/notes/harness (`git config
#    remote.X.fetch ...` then `git fetch X`: git's own data, not the command's words).
# Each is checked below to really create the ref. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && git add -A && git commit -qm init \
  && git commit -q --allow-empty -m two ) >/dev/null 2>&1 || exit 2
S=$(git rev-parse HEAD~1); B=$(git symbolic-ref --short HEAD)
decide() { # the guard's decision for a tool call (tool name, input as JSON) run in $R, through the hook's CLI
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": sys.argv[2], "tool_input": json.loads(sys.argv[3])}))
PY
}
hk() { decide Bash "$(python -c 'import json,sys; print(json.dumps({"command": sys.argv[1]}))' "$1")"; }
[ "$(hk "git update-ref refs/replace/$S HEAD")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
[ "$(hk "git fetch -q . HEAD:refs/replace/$S")" = deny ] || { echo "setup: F-0030 control not denied" >&2; exit 2; }
fail=0
refs() { git for-each-ref --format='%(refname)' refs/replace refs/notes | tr '\n' ' '; }
for c in "mkdir -p .git/refs/replace && git rev-parse HEAD > .git/refs/replace/$S" \
         "mkdir -p .git/refs/notes && git rev-parse HEAD > .git/refs/notes/harness" \
         "git fetch -q --refmap=+refs/heads/*:refs/replace/* . $B" \
         "git remote add self . && git config remote.self.fetch +refs/heads/$B:refs/replace/$S && git fetch -q self" \
         "git remote add self . && git config remote.self.fetch +refs/heads/$B:refs/notes/harness && git fetch -q self"; do
  git for-each-ref --format='%(refname)' refs/replace refs/notes | xargs -r -n1 git update-ref --no-deref -d
  git remote remove self >/dev/null 2>&1
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; made=$(refs)
  echo "guard: $a  refs written when run: ${made:-none} : $c"
  [ "$a" = allow ] && [ -n "$made" ] && fail=1
done
a=$(decide Write "{\"file_path\": \"$R/.git/refs/replace/$S\", \"content\": \"$(git rev-parse HEAD)\\n\"}")
echo "guard: $a  : Write tool to .git/refs/replace/$S"; [ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: replace / notes refs written by ref files, --refmap or a remote's fetch refspec pass the guard"
exit $fail
