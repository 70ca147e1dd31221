#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# f5ac62b made the tool guard refuse `git replace` and `git update-ref refs/replace/...`; an older rule refuses
# `git update-ref refs/notes/harness`. Both read update-ref's argv only. The same refs are written, and the guard
# ALLOWS it, by `git update-ref --stdin` (refs named on stdin), `git fetch . SRC:refs/replace/X`,
# `git push . SRC:refs/replace/X` and `git symbolic-ref refs/replace/X ...` — each checked below to really create
# the ref. (A replace ref is what 04-precommit-shim-honours-replace-refs.sh uses.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && git add -A && git commit -qm init \
  && git commit -q --allow-empty -m two ) >/dev/null 2>&1 || exit 2
S=$(git rev-parse HEAD~1); B=$(git symbolic-ref HEAD)
hk() { # the guard's decision for a Bash command run in $R, through the hook's CLI
  python - "$R" "$1" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
[ "$(hk "git update-ref refs/replace/$S HEAD")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
[ "$(hk "git update-ref refs/notes/harness HEAD")" = deny ] || { echo "setup: notes control not denied" >&2; exit 2; }
fail=0
for c in "echo 'create refs/replace/$S HEAD' | git update-ref --stdin" "git fetch -q . HEAD:refs/replace/$S" \
         "git push -q . HEAD:refs/replace/$S" \
         "git symbolic-ref refs/replace/$S $B" "echo 'update refs/notes/harness HEAD' | git update-ref --stdin"; do
  git for-each-ref --format='%(refname)' refs/replace | xargs -r -n1 git update-ref --no-deref -d
  a=$(hk "$c"); before=$(git rev-parse -q --verify refs/notes/harness)
  ( eval "$c" ) >/dev/null 2>&1
  made=$( [ -n "$(git for-each-ref refs/replace)" ] || [ "$(git rev-parse -q --verify refs/notes/harness)" != "$before" ] && echo yes || echo no)
  echo "guard: $a  ref written when run: $made  : $c"
  [ "$a" = deny ] || fail=1
done
exit $fail
