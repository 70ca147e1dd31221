#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The judge expands `$(echo X)`, backquotes and `d=X; … $d` within a line (the .harness spellings are refused),
# but real_names re-spells only the raw words: with h -> .harness, `echo >> $(echo h)/tasks/T/events.jsonl`,
# the backquoted form and `d=h; echo >> $d/tasks/T/events.jsonl` are ALLOWED and write the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
ln -s .harness h || exit 2
[ "$(hk "echo x >> \$(echo .harness)/tasks/$TID/events.jsonl")" = deny ] \
  && [ "$(hk "d=.harness; echo x >> \$d/tasks/$TID/events.jsonl")" = deny ] || { echo "setup: controls not denied" >&2; exit 2; }
fail=0
for c in "echo '{}' >> \$(echo h)/tasks/$TID/events.jsonl" "echo '{}' >> \`echo h\`/tasks/$TID/events.jsonl" \
         "d=h; echo '{}' >> \$d/tasks/$TID/events.jsonl"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: an expanded word leads through a symlink into .harness; the guard allows the write"
exit $fail
