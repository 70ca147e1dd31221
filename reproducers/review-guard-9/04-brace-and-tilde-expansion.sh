#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The judge reads a word with braces or a leading `~+`/`~-`/`~` as a literal path: bash's brace expansion
# (`{.harness,x}/…`) and tilde expansion (`~+` is $PWD, `~-` $OLDPWD, `~` $HOME) are not done. Writes to the
# ledger so spelled are ALLOWED and land (`echo >> .harness/…` and globs of it are refused). The same goes for a
# link: `ln -s {.harness,h}` makes h -> .harness. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "echo '{}' >> $L" "ln -s .harness h"; mkdir sub || exit 2
for c in "echo '{}' | tee -a {.harness,/dev/null}/$E" \
         "echo '{}' >> ~+/$L" \
         "cd sub && echo '{}' >> ~-/$L" \
         "echo '{}' >> ~/../repo/$L"; do
  ledger_case "$c"
done
c="ln -s {.harness,h}"; a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
echo "guard: $a  h -> .harness: $([ "$(realpath h 2>/dev/null)" = "$(realpath .harness)" ] && echo yes || echo no) : $c"
[ "$a" = allow ] && [ "$(realpath h 2>/dev/null)" = "$(realpath .harness)" ] && fail=1
[ $fail = 1 ] && echo "DEFECT: brace/tilde expansion hides .harness from the guard; the ledger is written or linked"
exit $fail
