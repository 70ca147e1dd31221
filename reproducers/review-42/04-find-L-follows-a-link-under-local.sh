#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# find's -L / -follow are dropped when the guard works out what a find reaches: from .harness/local (scratch),
# a find that follows `.harness/local/t -> ../tasks` deletes or truncates the ledger, allowed.
# Exit 1 while allowed and the ledger changes; 0 when denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
python3 -c 'import os; os.symlink("../tasks", ".harness/local/t")' || exit 2
status=0
for CMD in "find -L .harness/local -name events.jsonl -delete" \
           "find .harness/local -follow -name events.jsonl -delete" \
           "find -L .harness/local -name events.jsonl -exec truncate -s0 {} +"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
