#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The fix makes find's `-exec CMD {}` stand for the guarded files a find reaches, but the same find piped into
# xargs (`find . -name events.jsonl | xargs sed -i 1d`, `-print0 | xargs -0`, `xargs -I% sh -c '… %'`) hands
# the same files to the same command: shell_prefixes appends `${xargs_input}` (an unknown word, let pass), and
# `-I%`'s placeholder is read as a literal `%`. ALLOWED; each writes the ledger. (`fd -x` and GNU `parallel`,
# the other runners the brief names, are not recognised at all; shown when installed.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "find . -name events.jsonl -exec sed -i 1d {} +"
for c in "find . -name events.jsonl | xargs sed -i 1d" \
         "find . -name events.jsonl -print0 | xargs -0 -n1 sed -i 1d" \
         "find . -name events.jsonl | xargs -I% sh -c 'echo x >> %'" \
         "git ls-files -z '*.jsonl' | xargs -0 sed -i 1d"; do
  ledger_case "$c"
done
command -v fd >/dev/null && ledger_case "fd -HI -t f events.jsonl -x sed -i 1d"
command -v parallel >/dev/null && ledger_case "find . -name events.jsonl | parallel sed -i 1d {}"
[ $fail = 1 ] && echo "DEFECT: find's files handed to a writer through xargs; the guard allows it"
exit $fail
