#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# check_shell follows `cd DIR` only when cd has exactly one word (bypass.py: `len(cmd.words) == 2`, taken literally).
# `cd -- .harness`, `cd -P .harness`, `cd {.harness,}`, `cd "$PWD/.harness"`, `cd -` back into .harness and
# `popd` back into it leave the guard judging the next relative path from the repository's top, so
# `… && echo >> tasks/T/events.jsonl` is ALLOWED (while `cd .harness && …` is refused) and writes the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness && echo '{}' >> $E"
for c in "cd -- .harness && echo '{}' >> $E" \
         "cd -P .harness && echo '{}' >> $E" \
         "cd {.harness,} && echo '{}' >> $E" \
         "cd \"\$PWD/.harness\" && echo '{}' >> $E" \
         "cd .harness; cd ..; cd - >/dev/null; echo '{}' >> $E" \
         "pushd .harness; pushd /tmp; popd; echo '{}' >> $E"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a cd the guard does not follow, then a relative path, writes the ledger; the guard allows it"
exit $fail
