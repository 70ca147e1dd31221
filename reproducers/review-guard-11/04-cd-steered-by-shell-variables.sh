#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Where a cd goes depends on shell variables the line may set itself, which shell_folders.entered ignores:
# CDPATH (`CDPATH=.harness cd tasks` enters .harness/tasks), OLDPWD (`cd -` and `~-` go to $OLDPWD: entered
# says "[] — a folder the line was in already"), HOME (`cd`, `cd ~` and a `~/…` word use the line's $HOME,
# while the guard spells `~` with the hook process's HOME). All ALLOWED; each writes the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness/tasks && echo x >> $TID/events.jsonl" "cd .harness && echo x >> $E"
for c in "CDPATH=.harness cd tasks >/dev/null && echo x >> $TID/events.jsonl" \
         "export CDPATH=\$PWD/.harness; cd tasks >/dev/null; echo x >> $TID/events.jsonl" \
         "OLDPWD=\$PWD/.harness; cd - >/dev/null; echo x >> $E" \
         "OLDPWD=.harness cd - >/dev/null && echo x >> $E" \
         "OLDPWD=\$PWD/.harness; echo x >> ~-/$E" \
         "HOME=\$PWD/.harness; cd; echo x >> $E" \
         "HOME=\$PWD/.harness; cd ~ && echo x >> $E" \
         "HOME=.harness; echo x >> ~/$E"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: CDPATH, OLDPWD or HOME set on the line steer a cd (or ~) into .harness; the guard allows it"
exit $fail
