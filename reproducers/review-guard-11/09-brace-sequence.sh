#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0060's fix expands brace lists (`{.harness,}`) but not brace sequences: shell_resolve.braces returns a word
# without a comma unchanged, so `.harnes{s..s}` (bash: `.harness`) and `.harnes{r..s}` (`.harnesr .harness`)
# pass as literal names: `cd .harnes{s..s} && echo >> tasks/T/events.jsonl`, `tee -a .harnes{r..s}/…` and a
# redirect to `.harnes{s..s}/…` (one word, so bash allows it) are ALLOWED and write the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd {.harness,} && echo x >> $E" "echo x | tee -a {.harness,x}/$E"
for c in "cd .harnes{s..s} && echo x >> $E" \
         "echo x | tee -a .harnes{r..s}/$E" \
         "echo x >> .harnes{s..s}/$E" \
         "sed -i 1d .ha{r..r}ness/$E"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a brace sequence spells .harness; the guard allows it"
exit $fail
