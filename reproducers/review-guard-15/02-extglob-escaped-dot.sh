#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# bypass._commands_of re-judges a line with each extglob group as `*`, or as `.*` when one of its alternatives
# starts with a dot (_as_star). A dot written escaped or quoted (`@(\.harness)`, `@(".harness")`,
# `@(x|'.harness')`) does not start with "." as text, so the group becomes `*`, which skips dotted names, and the
# line is allowed. To bash the escaped or quoted dot is a literal leading dot, and the group matches `.harness`.
# `@(.harness)` written plainly is denied.
#   shopt -s extglob
#   sed -i 1d @(\.harness)/tasks/*/events.jsonl
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control $'shopt -s extglob\nsed -i 1d @(.harness)/tasks/*/events.jsonl'
ledger_case $'shopt -s extglob\nsed -i 1d @(\\.harness)/tasks/*/events.jsonl'
ledger_case $'shopt -s extglob\nsed -i 1d @(x|".harness")/tasks/*/events.jsonl'
ledger_case "bash -O extglob -c 'sed -i 1d @(\\.harness)/tasks/*/events.jsonl'"
[ $fail = 1 ] && echo "DEFECT: an extglob group with an escaped or quoted leading dot reaches the ledger"
exit $fail
