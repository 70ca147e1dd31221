#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `xargs -I{} sh -c '{}'` runs each input line AS a shell command line. shell_prefixes.strip_prefix turns the
# replace string into find's `{}`, and the `{}` is only ever filled with files when a find / git ls-files feeds
# the xargs; otherwise `sh -c '{}'` is judged as the literal line `{}` and allowed. `sh -c "$(cat cmd.txt)"` is
# refused (a line the guard cannot read) but these run any line, written right there on the command line:
#   echo 'sed -i 1d .harness/tasks/T/events.jsonl' | xargs -I{} sh -c '{}'       (allowed; edits the ledger)
#   echo 'git commit --no-verify -m x' | xargs -I% bash -c %                       (allowed)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "git commit --no-verify -m x" 'sh -c "$(cat cmd.txt)"'
ledger_case "echo 'sed -i 1d $L' | xargs -I{} sh -c '{}'"
ledger_case "xargs -I% bash -c % <<< 'sed -i 1d $L'"
ledger_case "printf '%s\n' 'sed -i 1d $L' | xargs -0 -I{} sh -c {}"
for c in "echo 'git commit --no-verify -m x' | xargs -I% bash -c %" "cat cmd.txt | xargs -I{} sh -c '{}'"; do
  a=$(hk "$c"); echo "guard: $a : $c (not run)"; [ "$a" = allow ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a line xargs -I hands to a shell as its script is never judged"
exit $fail
