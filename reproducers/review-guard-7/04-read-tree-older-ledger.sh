#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The guard refuses `git checkout HEAD~1 -- .harness` / `git restore --source=HEAD~1`: "from another revision
# would put back older, shorter records over the harness's ledger". Git plumbing does the same and the guard
# ALLOWS it: `git read-tree -u --reset HEAD~1`, `git read-tree -m -u HEAD HEAD~1`, and
# `git read-tree HEAD~1 && git checkout-index -f -a` each write the older, shorter ledger over the work tree's.
# Each is checked to really shorten the ledger file. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
L=$(git ls-files '.harness/tasks/*/events.jsonl') || exit 2
n0=$(wc -l < "$L")
harness requirement add "Interrupted runs resume" --priority must >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -q -m two >/dev/null 2>&1 || exit 2
n1=$(wc -l < "$L"); [ "$n1" -gt "$n0" ] || { echo "setup: ledger did not grow" >&2; exit 2; }
[ "$(hk "git checkout HEAD~1 -- .harness")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for c in "git read-tree -u --reset HEAD~1" "git read-tree -m -u HEAD HEAD~1" "git read-tree HEAD~1 && git checkout-index -f -a"; do
  git reset -q --hard HEAD >/dev/null 2>&1
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $n1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$n1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: read-tree -u / checkout-index put an older, shorter ledger back; the guard allows it"
exit $fail
