#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A clean/smudge filter's line is judged as written (_configured_commands), but git replaces `%f` in it by the
# path of the file it filters. `sed -i 1d %f` names no guarded path, so it is allowed; with .gitattributes
# giving *.jsonl that filter, `git add --renormalize .` (or a plain `git diff` that refreshes the index) runs
# `sed -i 1d '.harness/tasks/T/events.jsonl'`. The same filter with the path written out is denied.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git -c filter.x.clean='sed -i 1d $L' add --renormalize ."
ledger_case "echo '*.jsonl filter=x' > .gitattributes; git -c filter.x.clean='sed -i 1d %f' add --renormalize ."
ledger_case "echo '*.jsonl filter=x' > .gitattributes; git -c filter.x.clean='sed -i 1d %f' diff"
[ $fail = 1 ] && echo "DEFECT: a filter's %f names the ledger and is not judged"
exit $fail
