#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# xargs_input._grep_paths (lines 71-80) knows only --regexp/--file/--glob as long options taking a separate value;
# GNU grep also takes `--exclude-dir DIR`, `--max-count N`, `--include GLOB`, `--context N` … with the value as
# the next word. That value is then read as the PATTERN, the real pattern as the PATH, and the listing grep -l
# prints is taken to be the files under a folder named like the pattern (none), instead of `.`:
#   grep -rl --exclude-dir node_modules task.created | xargs sed -i 1d    (allowed; every ledger is edited)
# while `grep -rl task.created | xargs sed -i 1d` is denied.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "grep -rl task.created | xargs sed -i 1d" "grep -rl --exclude-dir=node_modules task.created | xargs sed -i 1d"
for c in "grep -rl --exclude-dir node_modules task.created | xargs sed -i 1d" \
         "grep -rl --max-count 1 task.created | xargs sed -i 1d"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: grep -l's listing is misread when a long option's value is a separate word"
exit $fail
