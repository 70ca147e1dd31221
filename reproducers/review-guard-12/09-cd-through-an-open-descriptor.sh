#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A folder opened on a descriptor (`3<.harness`, `exec 3<.harness`) can be entered by /dev/fd/3 or
# /proc/self/fd/3 (a link the kernel resolves to the open folder). The guard places `cd /dev/fd/3` at the
# path as written (guarded_paths.Where.cd: normpath), not in .harness, so relative writes after it pass:
#   cd /dev/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl     (allowed; edits the ledger)
# (/proc/self/cwd and /proc/$$/cwd are refused: those held.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness && sed -i 1d $E" "cd /proc/self/cwd/.harness && sed -i 1d $E"
ledger_case "cd /dev/fd/3 3<.harness && sed -i 1d $E"
ledger_case "exec 3<.harness; cd /proc/self/fd/3; sed -i 1d $E"
ledger_case "exec 3<.harness/tasks; cd /dev/fd/3/$TID && sed -i 1d events.jsonl"
ledger_case "exec 3<.harness; sed -i 1d /dev/fd/3/$E"
[ $fail = 1 ] && echo "DEFECT: a cd into a folder by an open descriptor (or a path through it) is not followed"
exit $fail
