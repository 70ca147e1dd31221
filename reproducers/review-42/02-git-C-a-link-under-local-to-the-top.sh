#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# `.harness/local/top -> ../..` (the repository's top). `cd .harness/local/top && git checkout HEAD~1 -- .harness/tasks/…`
# is denied (the operand is followed from the cd's folder), but the same with `git -C .harness/local/top` is
# allowed: the guard reads the operand as .harness/local/top/.harness/tasks/… (scratch); git, in the real top,
# rewinds the ledger. A top-level link `r -> .` does the same (no .harness/local involved).
# Exit 1 while one of these is allowed and rewinds the ledger; 0 when denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
python3 -c 'import os; os.symlink("../..", ".harness/local/top"); os.symlink(".", "r")' || exit 2
status=0
for CMD in "cd .harness/local/top && git checkout HEAD~1 -- .harness/tasks/T/events.jsonl" \
           "git -C .harness/local/top checkout HEAD~1 -- .harness/tasks/T/events.jsonl" \
           "git -C r checkout HEAD~1 -- .harness/tasks/T/events.jsonl" \
           "git -C r checkout HEAD~1 -- '.harness/t*'"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger rewound: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
