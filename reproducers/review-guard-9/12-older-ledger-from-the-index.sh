#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0037/F-0047 refuse `git checkout-index` of .harness after `git read-tree HEAD~1`. The index is also the
# source of `git checkout -- PATH` and of `git restore PATH` (no --source), which _from_a_commit_the_harness_names
# takes for HEAD; `git reset HEAD~1 -- .harness` fills the index as read-tree does. And checkout-index's own check
# compares spellings without globs: `git checkout-index -f .ha*ss/…` (the shell expands it). Each is ALLOWED and
# puts HEAD~1's older, shorter ledger over the work tree. Exit 1 while the defect exists, 0 when fixed.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
two_commits
control "git read-tree HEAD~1 && git checkout-index -f $L" "git checkout HEAD~1 -- .harness"
G=".ha*ss/${L#.harness/}"
for c in "git read-tree HEAD~1 && git checkout -- .harness" \
         "git read-tree HEAD~1 && git restore .harness" \
         "git reset -q HEAD~1 -- .harness && git checkout -- .harness" \
         "git read-tree HEAD~1 && git checkout-index -f $G"; do
  git reset -q --hard HEAD
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $N1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$N1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: an older index's ledger is checked out over the work tree; the guard allows it"
exit $fail
