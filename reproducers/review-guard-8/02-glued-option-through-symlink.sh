#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# real_names resolves a word as a path, or the value of a `--name=value` word; a path glued to a short option
# (`sort -oh/…`) or to `of=` (`dd of=h/…`) is not resolved. With h -> .harness, `dd … of=h/tasks/T/events.jsonl`
# and `sort -oh/tasks/T/events.jsonl …` are ALLOWED while the same words on .harness/… are refused.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
ln -s .harness h || exit 2
[ "$(hk "dd if=/dev/null of=$L")" = deny ] && [ "$(hk "sort -o$L a.txt")" = deny ] \
  || { echo "setup: controls not denied" >&2; exit 2; }
fail=0
for c in "dd if=/dev/null of=h/tasks/$TID/events.jsonl" "sort -oh/tasks/$TID/events.jsonl a.txt"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a symlinked path glued to an option writes the ledger; the guard allows it"
exit $fail
