#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# The F-0038 shape for .git/: real_names follows a word whose written path is outside .harness/ and .git/, or
# (since F-0038) under .harness/local/; a word written inside .git/ whose real path is the record or git's hooks
# folder is not followed. With links `.git/x -> ../.harness` and `.git/y -> hooks` (a program's or a human's),
# the ledger is written or rewound and a hook replaced, allowed.
# Exit 1 while one of these is allowed and changes the ledger or the hook; 0 when all are denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
python3 -c 'import os; os.symlink("../.harness", ".git/x"); os.symlink("hooks", ".git/y")' || exit 2
status=0
for CMD in "echo x >> .git/x/tasks/T/events.jsonl" "cd .git/x && echo x >> tasks/T/events.jsonl" \
           "git -C .git/x checkout HEAD~1 -- tasks/T/events.jsonl" "printf '#!/bin/sh\nexit 0\n' > .git/y/pre-commit"; do
  reset_ledger; before=$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=ledger; [ "$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)" != "$before" ] && ch=hook
  echo "guard: $ans; changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch != no ] && status=1
done
exit $status
