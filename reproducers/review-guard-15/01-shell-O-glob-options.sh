#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Glob options given on a shell's own command line (`bash -O dotglob -c '…'`, `-O nocaseglob`) are not seen:
# glob_reach.looseness reads only the text of the line it judges, looking for `shopt`, GLOBIGNORE or BASHOPTS.
# The `-c` line is judged again as a line of its own, which holds no `shopt`, so its globs are read by bash's
# defaults (`*` skips `.harness`, case counts). The shell runs it with dotglob/nocaseglob on, and `*` matches
# `.harness`. The same glob after `shopt -s dotglob;` is denied.
#   bash -O dotglob -c 'sed -i 1d */tasks/*/events.jsonl'
#   bash -O nocaseglob -c 'sed -i 1d .HARNES[S]/tasks/*/events.jsonl'
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "shopt -s dotglob; sed -i 1d */tasks/*/events.jsonl" "shopt -s nocaseglob; sed -i 1d .HARNES[S]/tasks/*/events.jsonl"
ledger_case "bash -O dotglob -c 'sed -i 1d */tasks/*/events.jsonl'"
ledger_case "bash -O nocaseglob -c 'sed -i 1d .HARNES[S]/tasks/*/events.jsonl'"
ledger_case "bash -O dotglob -O globstar -c 'sed -i 1d **/events.jsonl'"
[ $fail = 1 ] && echo "DEFECT: glob options set by bash -O are not read; the -c line's globs reach the ledger"
exit $fail
