#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Prefixes that run the command in another folder: shell_prefixes.py drops `env -C DIR` / `env --chdir=DIR`
# (and sudo's -D/--chdir) with their value, and `find … -execdir CMD` runs CMD in each found file's folder;
# the command behind them is judged as if run here. `env -C .harness truncate -s 0 tasks/T/events.jsonl` and
# `find .harness -name events.jsonl -execdir sh -c 'echo >> events.jsonl' \;` are ALLOWED and write the ledger
# (`truncate -s 0 .harness/tasks/T/events.jsonl` is refused). Exit 1 while the defect exists, 0 when fixed.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "truncate -s 0 .harness/$E" "cd .harness && truncate -s 0 $E"
for c in "env -C .harness truncate -s 0 $E" \
         "env --chdir=.harness sh -c 'echo {} >> $E'" \
         "find .harness -name events.jsonl -execdir sh -c 'echo {} >> events.jsonl' \\;"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a command run in .harness/ by env -C or find -execdir writes the ledger; the guard allows it"
exit $fail
