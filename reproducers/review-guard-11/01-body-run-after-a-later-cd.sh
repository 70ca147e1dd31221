#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The judge walks a line in text order and judges each command in the folders the line may be in AT THAT
# POINT of the text (bypass.py check_shell: `folders` grows as the walk meets a cd). A function body, a loop
# body and a trap action are judged where they are written, but they run later, after a `cd .harness` written
# after them: `f() { echo >> tasks/T/events.jsonl; }; cd .harness; f`, a loop whose second pass runs in
# .harness, `trap '…' EXIT; cd .harness` are ALLOWED and write the ledger (`cd .harness; echo >> …` is refused).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness; echo '{}' >> $E"
for c in "f() { echo '{}' >> $E; }; cd .harness; f" \
         "for i in 1 2; do echo '{}' >> $E; cd .harness; done" \
         "while :; do echo '{}' >> $E; cd .harness || break; [ -d tasks ] || break; done" \
         "trap \"echo '{}' >> $E\" EXIT; cd .harness"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a command written before a cd runs after it (function, loop, trap); the guard allows it"
exit $fail
