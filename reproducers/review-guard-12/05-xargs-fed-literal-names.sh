#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The eleventh read's fix judges what xargs runs only when a find or `git ls-files` feeds it
# (shell_commands.py ~l.318); any other feeder leaves the appended words as ${xargs_input}, an unknown the
# judge lets through. So the guarded path, written out literally on the very line, reaches the writer:
#   echo .harness/tasks/T/events.jsonl | xargs sed -i 1d           (allowed; edits the ledger)
#   xargs truncate -s 0 <<< .harness/tasks/T/events.jsonl            (allowed)
#   ls -d .harness/tasks/*/events.jsonl | xargs sed -i 1d            (allowed)
#   echo .harness | xargs rm -rf                                     (allowed; not run)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "rm -rf .harness" "find .harness -type f | xargs truncate -s 0"
ledger_case "echo $L | xargs sed -i 1d"
ledger_case "printf '%s\0' $L | xargs -0 -n1 sed -i 1d"
ledger_case "xargs sed -i 1d <<< $L"
ledger_case "ls -d .harness/tasks/*/events.jsonl | xargs sed -i 1d"
ledger_case "grep -rl . .harness/tasks | xargs sed -i 1d"
a=$(hk "echo .harness | xargs rm -rf"); echo "guard: $a : echo .harness | xargs rm -rf (not run)"; [ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: names handed to xargs by echo, printf, <<<, ls or grep are not judged"
exit $fail
