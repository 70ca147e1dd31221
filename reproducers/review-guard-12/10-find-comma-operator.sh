#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# find's `,` operator evaluates BOTH sides (GNU find: `expr1 , expr2`). The new short-circuit evaluator
# (shell_folders._or/_and/_not, F-0090) stops at `,` (_and ends on it, _or only knows -o), so a run written after
# a `,` is never "reached" and the find is allowed:
#   find . -false , -name events.jsonl -exec sed -i 1d {} +        (allowed; edits the ledger)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "find . -name events.jsonl -exec sed -i 1d {} +"
ledger_case "find . -false , -name events.jsonl -exec sed -i 1d {} +"
ledger_case "find . -name x , -name events.jsonl -exec sed -i 1d {} \\;"
ledger_case "find . -path ./src , -path '*/.harness/*' -name '*.jsonl' -exec truncate -s 0 {} +"
[ $fail = 1 ] && echo "DEFECT: a find's run after a comma is not judged"
exit $fail
