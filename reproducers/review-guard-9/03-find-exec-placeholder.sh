#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `find -exec CMD {} +` is judged as CMD with the literal word `{}` (shell_commands._find_runs), and find's own
# check (bypass_files._check_deletion) looks only at its first operand when it is under .harness/. From the top
# (`find . …`), `find . -name events.jsonl -exec truncate -s 0 {} +` and `… -exec sed -i 1d {} +` are ALLOWED
# and empty or cut the ledger. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "truncate -s 0 $L" "find .harness -name events.jsonl -exec truncate -s 0 {} +"
for c in "find . -name events.jsonl -exec truncate -s 0 {} +" \
         "find . -path '*/tasks/*' -name '*.jsonl' -exec sed -i 1d {} \\;"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: find from the top hands the ledger to a writer through {}; the guard allows it"
exit $fail
