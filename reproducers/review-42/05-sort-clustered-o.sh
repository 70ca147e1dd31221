#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# sort's -o inside a cluster of short options (`-uo FILE`, `-uoFILE`) is not read as the output: the ledger is
# overwritten, allowed (no link needed; `-o FILE`, `-oFILE`, `-u -oFILE` are denied).
# Exit 1 while allowed and the ledger changes; 0 when denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
status=0
for CMD in "sort -uo .harness/tasks/T/events.jsonl app.py" "sort -uo.harness/tasks/T/events.jsonl app.py" \
           "sort -ruo.harness/local/../tasks/T/events.jsonl app.py"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
