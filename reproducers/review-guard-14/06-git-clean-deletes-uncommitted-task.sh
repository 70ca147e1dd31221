#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git clean` is judged by nothing in bypass_git (no "clean" case in _check_git_files / git_older_state): it
# deletes whatever git does not track, and a task's record is untracked until its first commit
# (`harness task new` writes .harness/tasks/<T2>/events.jsonl and commits nothing), as is evidence recorded since
# the last commit. `git clean -fd` (or `git clean -fdx .harness`) deletes the new task's whole folder, its ledger
# included, while `rm -rf .harness/tasks/<T2>` is denied. Not new in this change, but in the same guard.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
harness task new t2 >/dev/null 2>&1 || exit 2
T2=$(ls .harness/tasks | grep -vx "$TID" | head -1); [ -n "$T2" ] && [ -f ".harness/tasks/$T2/events.jsonl" ] || exit 2
cp -a ".harness/tasks/$T2" "$T/saved"
control "rm -rf .harness/tasks/$T2" "rm .harness/tasks/$T2/events.jsonl"
for c in "git clean -fd" "git clean -fdx .harness"; do
  rm -rf ".harness/tasks/$T2"; cp -a "$T/saved" ".harness/tasks/$T2"
  a=$(hk "$c"); bash -c "$c" >/dev/null 2>&1
  gone=no; [ -f ".harness/tasks/$T2/events.jsonl" ] || gone=yes
  echo "guard: $a  new task's ledger deleted: $gone : $c"
  [ "$a" = allow ] && [ $gone = yes ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: git clean deletes a task record that is not committed yet"
exit $fail
