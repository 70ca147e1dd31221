#!/usr/bin/env bash
# Found by read 43 (an adversarial read of read 42's link fixes).
# A link that already exists (made by a human, an older guard, or a line of its own) is copied AS a link by cp -a,
# -P, -d, -r/-R (a command-line link too, unless -L/-H), by mv, and inside a folder cp -a/-r or mv copies: on the
# same line the copy's new name is read by its text (it does not exist when the guard reads the line), while the
# kernel follows it into the record. A relative link copied or moved elsewhere leads elsewhere, too.
# Exit 1 while such a line is allowed and writes the ledger or the cache of valid documents; 0 when all are denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
links() {  # .harness/local/abs -> the record, up -> .harness, d/e/z -> ../.harness/tasks (dangling where it is)
  rm -rf .harness/local/abs .harness/local/up .harness/local/d a e && mkdir -p .harness/local/d/e &&
  python3 -c 'import os; os.symlink(os.path.abspath(".harness"), ".harness/local/abs"); os.symlink("..", ".harness/local/up")
os.symlink("../.harness/tasks", ".harness/local/d/e/z")'; }
status=0
for CMD in "cp -a .harness/local/abs a && echo x >> a/tasks/T/events.jsonl" \
           "cp -P .harness/local/up .harness/local/d/x && echo x >> .harness/local/d/x/valid" \
           "cp -R .harness/local/abs a && echo x >> a/tasks/T/events.jsonl" \
           "cp --no-dereference .harness/local/abs a; echo x >> a/tasks/T/events.jsonl" \
           "cp -a .harness/local a && echo x >> a/abs/tasks/T/events.jsonl" \
           "cd .harness/local && cp -a abs ../../a && cd ../.. && echo x >> a/tasks/T/events.jsonl" \
           "find .harness/local -name abs -exec cp -P {} a \\; && echo x >> a/tasks/T/events.jsonl" \
           "cp -a .harness/local/d/e e && echo x >> e/z/T/events.jsonl" \
           "mv .harness/local/d/e e && echo x >> e/z/T/events.jsonl"; do
  reset_ledger; links || exit 2; echo v > .harness/local/valid; before=$(valid_sum)
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=ledger; [ "$(valid_sum)" != "$before" ] && ch=valid
  echo "guard: $ans; changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch != no ] && status=1
done
exit $status
