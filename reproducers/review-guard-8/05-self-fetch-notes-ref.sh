#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git fetch . X:refs/notes/harness` (the stamps' notes ref rewritten by hand) is refused only when the remote is
# spelled `.` or `./`; the same repository as `.git`, "$PWD" or its absolute path is ALLOWED, and the fetch /
# push overwrites the stamps' notes ref. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
NR=$(git for-each-ref --format='%(refname)' refs/notes | head -1); [ -n "$NR" ] || exit 2
[ "$(hk "git fetch . HEAD:$NR")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
orig=$(git rev-parse "$NR"); fail=0
for c in "git fetch -q .git +HEAD:$NR" "git fetch -q \"\$PWD\" +HEAD:$NR" "git fetch -q $R +HEAD:$NR" "git push -q .git +HEAD:$NR"; do
  git update-ref "$NR" "$orig"
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; now=$(git rev-parse "$NR")
  echo "guard: $a  notes ref rewritten: $([ "$now" != "$orig" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$now" != "$orig" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: the stamps' notes ref is overwritten by a self-fetch/push spelled other than '.'; the guard allows it"
exit $fail
