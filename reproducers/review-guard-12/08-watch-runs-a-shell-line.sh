#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `watch [opts] 'LINE'` hands LINE to `sh -c` (procps watch; `-x` execs the words instead), like `sh -c LINE`, but
# watch is not among the guard's prefixes/shell runners (shell_prefixes.PREFIXES), so LINE is never judged:
#   watch -n1 'sed -i 1d .harness/tasks/T/events.jsonl'    (allowed; `sh -c '…'` is refused)
#   watch -g 'git commit --no-verify -m x'                  (allowed)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sh -c 'sed -i 1d $L'" "sh -c 'git commit --no-verify -m x'"
for c in "watch -n1 'sed -i 1d $L'" "watch -g 'git commit --no-verify -m x'" "watch -n 1 -e 'echo x >> $L'"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = allow ] && fail=1
done
# the effect, with no terminal needed: watch runs the line once before drawing (TERM given, output discarded)
before=$(git hash-object "$L"); TERM=xterm timeout 3 watch -n1 "sed -i 1d $L" >/dev/null 2>&1 </dev/null
echo "ledger changed by watch: $([ "$before" != "$(git hash-object "$L" 2>/dev/null)" ] && echo yes || echo no)"
[ $fail = 1 ] && echo "DEFECT: watch's command line is not judged"
exit $fail
