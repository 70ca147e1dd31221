#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The rules that refuse "another revision's files over the work tree" (F-0037, F-0047: checkout/restore from a
# revision other than HEAD, read-tree -u, checkout-index) do not cover the git commands that write a diff into the
# work tree: `git diff HEAD HEAD~1 -- .harness | git apply`, `git diff HEAD~1 HEAD | git apply -R`, and
# `git revert -n HEAD` are ALLOWED and put HEAD~1's older, shorter ledger back (nothing committed, no hook runs).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
two_commits
control "git checkout HEAD~1 -- .harness"
for c in "git diff HEAD HEAD~1 -- .harness | git apply" "git diff HEAD~1 HEAD | git apply -R" "git revert -n HEAD"; do
  git reset -q --hard HEAD
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $N1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$N1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: an older ledger is written back through git apply / git revert -n; the guard allows it"
exit $fail
