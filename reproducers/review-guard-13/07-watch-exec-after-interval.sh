#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_prefixes._watch_execs (line 107-115) looks for -x/--exec only up to the first word not starting with "-"
# — which is the VALUE of `-n 1` / `--interval 1`. So `watch -n 1 -x CMD…` is read as "no -x": its words are
# joined and re-parsed as an sh -c line. `watch -n 1 -x sh -c 'sed -i 1d LEDGER'` becomes the line
# `sh -c sed -i 1d LEDGER`, i.e. sh runs `sed` with the ledger as $0 — harmless to the guard — while watch
# really execs sh -c 'sed -i 1d LEDGER' every second. Same with `bash -c 'git commit --no-verify …'`.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export TERM=xterm  # watch needs a terminal type (its output is discarded)
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "timeout 3 watch -x sh -c 'sed -i 1d $L'" "timeout 3 watch -n 1 'sed -i 1d $L'"
for c in "timeout 3 watch -n 1 -x sh -c 'sed -i 1d $L'" \
         "timeout 3 watch --interval 1 --exec sh -c 'sed -i 1d $L'"; do
  ledger_case "$c"
done
c="watch -n 1 -x bash -c 'git commit --no-verify -m x'"; a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: watch -n N -x is read as a shell line, which hides the command it execs"
exit $fail
