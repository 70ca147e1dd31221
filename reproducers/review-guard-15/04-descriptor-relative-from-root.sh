#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_folders._through_descriptors looks for a path through a descriptor only in a word that holds "/dev" or
# "/proc", or when the folder is under /dev or /proc (`near`). From `/`, `dev/fd/3/…` holds neither, so it is
# judged as an ordinary path outside the repository and allowed. It is /dev/fd/3, a descriptor the line opened on
# `.harness`. The same line after `cd /dev` (`fd/3/…`) is denied.
#   exec 3<.harness; cd /; sed -i 1d dev/fd/3/tasks/T/events.jsonl
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "exec 3<.harness; cd /dev; sed -i 1d fd/3/tasks/$TID/events.jsonl" \
        "exec 3<.harness; sed -i 1d /dev/fd/3/tasks/$TID/events.jsonl"
ledger_case "exec 3<.harness; cd /; sed -i 1d dev/fd/3/tasks/$TID/events.jsonl"
ledger_case "cd / 3<$R/.harness && sed -i 1d proc/self/fd/3/tasks/$TID/events.jsonl 3<$R/.harness"
[ $fail = 1 ] && echo "DEFECT: a descriptor path written relative to / is not read as a descriptor"
exit $fail
