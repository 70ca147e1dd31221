#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# bypass_files._holds_the_record refuses a link to /proc, /dev/fd or /dev/std* (guarded_paths.PROC_FOLDERS), but
# not one to /dev itself, whose `fd/N` entries are then reached through the link: `d/fd/3` is /dev/fd/3, a
# descriptor the line opened on `.harness`. `ln -s /dev/fd d && cd d/3 3<.harness …` is denied; the same with a
# link to /dev is allowed.
#   ln -s /dev d && cd d/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "ln -s /dev/fd d && cd d/3 3<.harness && sed -i 1d tasks/$TID/events.jsonl"
ledger_case "ln -s /dev d && cd d/fd/3 3<.harness && sed -i 1d tasks/$TID/events.jsonl"
[ $fail = 1 ] && echo "DEFECT: a link to /dev reaches a descriptor held on the record"
exit $fail
