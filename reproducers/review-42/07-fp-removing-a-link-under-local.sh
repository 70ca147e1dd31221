#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# False positive from F-0038's fix: removing or moving a link that lies under .harness/local/ (the clone's
# scratch) deletes only the link, yet is now denied as "deleting .harness/tasks would erase the harness's
# record" — the word is judged by its real path, the link's target. At 154eaf0 these were allowed.
# (Removing the stray link is what one would do on finding it.)
# Exit 1 while any of these is denied; 0 when all are allowed. Each is checked to leave the record intact.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
status=0
for CMD in "rm .harness/local/t" "rm -f .harness/local/up" "unlink .harness/local/t" "mv .harness/local/up .harness/local/up.old"; do
  rm -f .harness/local/t .harness/local/up .harness/local/up.old
  python3 -c 'import os; os.symlink("../tasks", ".harness/local/t"); os.symlink("..", ".harness/local/up")' || exit 2
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  [ -n "$(git status --porcelain -- .harness)" ] && { echo "record changed by: $CMD"; exit 2; }
  echo "guard: $ans; record unchanged   $CMD"
  [ "$ans" = deny ] && status=1
done
exit $status
