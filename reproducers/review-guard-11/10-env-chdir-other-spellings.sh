#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0058's fix reads `env -C DIR` / `--chdir=DIR` as a cd (shell_prefixes._chdir_values), but:
# - it stops at the first word that does not begin with `-`, so an option's separate value before -C hides it
#   (`env -u X -C.harness …`, `env -u X --chdir .harness …`);
# - GNU getopt_long takes any unambiguous abbreviation (`--ch=.harness`, `--chd .harness`), matched nowhere;
# - `env -S'-C .harness CMD'` puts -C into the split string, read after the folders were collected.
# Each runs CMD in .harness, is ALLOWED, and writes the ledger (`env -C .harness sh -c '…'` is refused).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "env -C .harness sh -c 'echo x >> $E'"
for c in "env -u X -C.harness sh -c 'echo x >> $E'" \
         "env -u X --chdir .harness sh -c 'echo x >> $E'" \
         "env --ch=.harness sh -c 'echo x >> $E'" \
         "env --chd .harness sed -i 1d $E" \
         "env -S'-C .harness sed -i 1d $E'"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: env runs its command in .harness by a -C the guard does not read; the guard allows it"
exit $fail
