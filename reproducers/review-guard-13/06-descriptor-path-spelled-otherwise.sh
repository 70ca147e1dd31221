#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_folders.DESCRIPTOR (line 40) is matched against the word as written (entered(), _through_descriptors) and
# against the posixpath.normpath'd folder. It misses other spellings of the same descriptor folders:
#  - a doubled leading slash: POSIX normpath KEEPS exactly two leading slashes, so `//dev/fd/3` never becomes
#    `/dev/fd/3`, while the kernel reads it as /dev/fd/3;
#  - a thread's descriptor table, /proc/self/task/<tid>/fd/N (here globbed: /proc/self/task/*/fd/3).
#   cd //dev/fd/3 3<.harness && sed -i 1d tasks/T/events.jsonl           (allowed; ledger edited)
#   sed -i 1d //dev/fd/3/tasks/T/events.jsonl 3<.harness                 (allowed; ledger edited)
#   exec 3<.harness; cd /proc/self/task/*/fd/3 && sed -i 1d tasks/T/events.jsonl
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "cd /dev/fd/3 3<.harness && sed -i 1d tasks/$TID/events.jsonl" \
        "sed -i 1d /dev/fd/3/tasks/$TID/events.jsonl 3<.harness" \
        "exec 3<.harness; cd /proc/self/fd/3 && sed -i 1d tasks/$TID/events.jsonl"
for c in "cd //dev/fd/3 3<.harness && sed -i 1d tasks/$TID/events.jsonl" \
         "sed -i 1d //dev/fd/3/tasks/$TID/events.jsonl 3<.harness" \
         "exec 3<.harness; cd /proc/self/task/*/fd/3 && sed -i 1d tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a descriptor folder spelled //dev/fd/N or /proc/self/task/*/fd/N is a plain folder to the guard"
exit $fail
