#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0036's fix guards the files of replace refs (.git/refs/replace/, packed-refs) because they make git show
# other history. `.git/info/grafts` and `.git/shallow` do the same and, unlike replace refs, are honoured even
# with GIT_NO_REPLACE_OBJECTS=1 (the harness's AS_STORED): writing them by shell redirection is ALLOWED, and then
# `git rev-parse HEAD^@` (as harness/gitio/fast_path.head_facts asks it) names other parents (or none).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
git commit -q --allow-empty -m two && git commit -q --allow-empty -m three || exit 2
root=$(git rev-list --max-parents=0 HEAD); head=$(git rev-parse HEAD)
[ "$(hk "echo $head > .git/refs/replace/$root")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
parents() { GIT_NO_REPLACE_OBJECTS=1 git -c advice.graftFileDeprecated=false rev-parse HEAD^@ 2>/dev/null | tr '\n' ' '; }
p0=$(parents); fail=0
for c in "echo '$head $root' > .git/info/grafts" "echo $head > .git/shallow"; do
  rm -f .git/info/grafts .git/shallow
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; p=$(parents)
  echo "guard: $a  HEAD's parents (GIT_NO_REPLACE_OBJECTS=1) '$p0' -> '$p' : $c"
  [ "$a" = allow ] && [ "$p" != "$p0" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: grafts/shallow rewrite the history git shows, even without replace objects; the guard allows it"
exit $fail
