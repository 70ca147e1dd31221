#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# On a plain `&&`-chained line a cd REPLACES the folders the line may be in (bypass.py _enter: `new or folders`).
# But a cd/pushd/popd that goes BACK to an earlier folder (`cd -`, `popd`, `pushd` with no folder) is read by
# shell_folders.entered as [] ("none is new: one of folders"), and `new or folders` then keeps only the folder
# of the LAST cd -- the earlier folder (.harness) was already dropped. So
#   cd .harness && cd / && cd - && sed -i 1d tasks/T/events.jsonl
# is judged in / alone, allowed, and edits the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness && sed -i 1d $E"
for c in "cd .harness && cd / && cd - && sed -i 1d $E" \
         "pushd .harness && pushd / && popd && sed -i 1d $E" \
         "pushd .harness && pushd / && pushd && sed -i 1d $E" \
         "cd .harness && pushd / && popd && sed -i 1d $E" \
         "pushd .harness && pushd / && pushd +1 && sed -i 1d $E"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a chained cd back (cd -, popd, pushd) lands in a folder the guard already dropped"
exit $fail
