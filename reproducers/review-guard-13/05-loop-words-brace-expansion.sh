#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# cd_targets.loop_words (line 38) takes a for-loop's words with shlex.split, which does no brace expansion;
# bash expands `{a,b}` in the loop's word list. So `for d in .harnes{s,x}` walks .harness and .harnesx, but the
# guard's cd "$d" enters one folder literally named ".harnes{s,x}":
#   for d in .harnes{s,x}; do cd "$d" && sed -i 1d tasks/T/events.jsonl; done     (allowed; ledger edited)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "for d in .harness; do cd \"\$d\" && sed -i 1d tasks/$TID/events.jsonl; done" \
        "sed -i 1d .harnes{s,x}/tasks/$TID/events.jsonl"
for c in "for d in .harnes{s,x}; do cd \"\$d\" && sed -i 1d tasks/$TID/events.jsonl; done" \
         "for d in {.harness,src}; do (cd \"\$d\" && sed -i 1d tasks/$TID/events.jsonl); done"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a loop's brace-expanded words are not the ones the guard follows"
exit $fail
