#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# _check_link refuses a link to .harness/ or .git, not one to a folder that HOLDS them (the repository's top);
# real_names follows only links that exist when the line is judged. A line that makes the link and writes
# through it (`ln -s . r && echo >> r/.harness/tasks/T/events.jsonl`) is ALLOWED and writes the ledger; the
# same write through an existing `r -> .` is refused. Exit 1 while the defect exists, 0 when fixed.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
ln -s . r0 || exit 2; control "echo '{}' >> r0/.harness/$E" "ln -s .harness h"; rm r0
for c in "ln -s . r && echo '{}' >> r/.harness/$E" \
         "mkdir -p d && ln -s .. d/up && truncate -s 0 d/up/.harness/$E" \
         "ln -s \"\$PWD\" top && sed -i 1d top/.harness/$E"; do
  ledger_case "$c"; rm -rf r d top
done
[ $fail = 1 ] && echo "DEFECT: a link to the repository's top made and used on one line writes the ledger; the guard allows it"
exit $fail
