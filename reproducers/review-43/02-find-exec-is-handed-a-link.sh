#!/usr/bin/env bash
# Found by read 43 (an adversarial read of read 42's link fixes).
# A find without -L does not follow a link under its start, but the program -exec (-execdir, xargs) runs on what it
# finds does: `.harness/local/x -> ../tasks/T/events.jsonl` found by its name is handed to truncate, which empties
# the ledger. The guard judged the run by the start's own paths (scratch), not where its links lead.
# Exit 1 while such a line is allowed and the ledger changes; 0 when all are denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
python3 -c 'import os; os.symlink("../tasks/T/events.jsonl", ".harness/local/x"); os.makedirs("src")
os.symlink("../.harness/tasks", "src/t")' || exit 2
status=0
for CMD in "find .harness/local -name x -exec truncate -s0 {} +" \
           "find .harness/local -name x -execdir truncate -s0 {} +" \
           "find .harness/local/ -type l -exec truncate -s0 {} +" \
           "find .harness/local -name x | xargs truncate -s0" \
           "find src -name t -exec sh -c 'echo x >> \$0/T/events.jsonl' {} \\;"; do
  reset_ledger; ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=yes
  echo "guard: $ans; ledger changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
