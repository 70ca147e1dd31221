#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Regression of F-0043's fix: bypass_files._destination now reads ANY short-option cluster holding a `t` as
# `-t DIR` (for every copier but rsync). A value glued to another option that happens to hold a `t`
# (`cp -S.bt` / `install -S.bt`: the backup suffix ".bt") makes the guard take the NEXT word (the source) for the
# target folder, and the real destination is never judged: `cp -S.bt forged .harness/tasks/T/events.jsonl` is
# ALLOWED and overwrites the ledger (`cp forged .harness/…` and `cp --suffix=.bt …` are refused).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
echo '{"forged": true}' > forged || exit 2
control "cp forged $L" "cp --suffix=.bt forged $L"
for c in "cp -S.bt forged $L" "install -S.bt -m 644 forged $L" "cp -fS.tmp forged $L"; do
  ledger_case "$c"; rm -f "$L".bt "$L".tmp
done
[ $fail = 1 ] && echo "DEFECT: a glued option value holding a 't' hides cp's destination; the guard allows the overwrite"
exit $fail
