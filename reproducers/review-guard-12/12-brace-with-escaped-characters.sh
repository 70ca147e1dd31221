#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Brace expansion with a backslash-escaped character inside the braces (`{s,\}}`, `{s,\,}`, `{s,x\ y}`) still
# expands in bash (`.harnes{s,\}}` -> `.harness` and `.harnes}`), but the guard does not expand it, so
# the guarded path it names is not seen (the plain `.harnes{s,x}` is refused: that held):
#   sed -i 1d .harnes{s,\}}/tasks/T/events.jsonl     (allowed; edits the ledger)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "sed -i 1d .harnes{s,x}/$E"
for b in '{s,\}}' '{s,\,}' '{s,x\ y}' '{s,\{}'; do
  ledger_case "sed -i 1d .harnes$b/$E"
done
[ $fail = 1 ] && echo "DEFECT: a brace holding an escaped character is not expanded by the guard"
exit $fail
