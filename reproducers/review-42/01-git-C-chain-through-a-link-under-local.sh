#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# F-0038's fix follows `git -C .harness/local/up` (up -> ..) but not the same folder reached by two -C's:
# each -C word is followed relative to the command's cwd, not the folder the previous -C led to.
# Exit 1 while a chained -C through a link under .harness/local/ rewinds the ledger and is allowed; 0 when denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
python3 -c 'import os; os.symlink("..", ".harness/local/up"); os.symlink("../tasks", ".harness/local/t")' || exit 2
status=0
for CMD in "git -C .harness/local -C up checkout HEAD~1 -- tasks/T/events.jsonl" \
           "git -C .harness/local -C t checkout HEAD~1 -- T/events.jsonl" \
           "git -C .harness/local/up checkout HEAD~1 -- tasks/T/events.jsonl"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger rewound: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
