#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# find's -delete action removes what the expression matches, but only -exec/-execdir/-ok/-okdir runs are judged
# against the guarded files a find may reach (shell_folders.found_files / _runs_collapsed); -delete is not:
#   find . -name events.jsonl -delete             (allowed; deletes the ledger)
#   (a find started at .harness itself with -delete is refused: that held)
# while `find . -name events.jsonl -exec rm {} +` is refused.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "find . -name events.jsonl -exec rm {} +" "rm $L"
ledger_case "find . -name events.jsonl -delete"
ledger_case "find .harness/tasks -type f -name '*.jsonl' -delete"
a=$(hk "find .harness -delete"); echo "guard: $a : find .harness -delete (not run)"; [ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: find -delete on the record is allowed"
exit $fail
