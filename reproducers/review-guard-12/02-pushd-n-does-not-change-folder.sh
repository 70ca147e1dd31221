#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `pushd -n DIR` only puts DIR on the stack; the shell stays where it is. shell_folders.entered drops every
# leading option (`-n` too) and answers [DIR]; on a plain `&&` line (replace semantics) the guard then judges
# the rest in DIR ONLY, though it runs in the repository top:
#   pushd -n /tmp && sed -i 1d .harness/tasks/T/events.jsonl     (allowed; edits the ledger)
#   pushd -n /tmp && rm -rf .harness                               (allowed; not run here)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "rm -rf .harness"
ledger_case "pushd -n /tmp && sed -i 1d $L"
a=$(hk "pushd -n /tmp && rm -rf .harness"); echo "guard: $a : pushd -n /tmp && rm -rf .harness (not run)"
[ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: pushd -n is taken as entering its folder; the commands after it are judged in the wrong folder"
exit $fail
