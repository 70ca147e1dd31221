#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git checkout REV -- PATH` / `git restore -s REV PATH` from another revision than HEAD are refused for a PATH
# resolved as a file name under .harness/ (or a shell glob of it). git reads PATH as a pathspec: `'*.jsonl'`
# (git's `*` crosses `/` and a leading dot), `:/` (the whole tree), `':(top).harness'`, `':(glob)**/events.jsonl'`
# name the ledger too. Each is ALLOWED and puts HEAD~1's older, shorter ledger over the work tree.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
two_commits
control "git checkout HEAD~1 -- .harness" "git restore -s HEAD~1 $L"
for c in "git checkout HEAD~1 -- '*.jsonl'" "git checkout HEAD~1 -- :/" \
         "git restore -s HEAD~1 ':(top).harness'" "git restore --source=HEAD~1 ':(glob)**/events.jsonl'"; do
  git reset -q --hard HEAD
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $N1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$N1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a pathspec puts an older ledger back; the guard allows it"
exit $fail
