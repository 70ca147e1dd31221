#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# guarded_paths.GLOB_CHARS (line 82) is {*, ?, [}: a word is a pattern only if it holds one of them. With
# `shopt -s extglob` (on its own line, so bash parses the next with it on) `@(…)`, `+(…)`, `!(…)` are patterns
# too, and the guard reads them as literal names:
#   shopt -s extglob <newline> sed -i 1d @(.harness)/tasks/T/events.jsonl     (allowed; the ledger is edited)
#   shopt -s extglob <newline> cd .harnes+(s) && sed -i 1d tasks/T/events.jsonl
# (The plain-path form was allowed before this change as well; the glob-cd code added here inherits the hole.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d .harnes?/tasks/$TID/events.jsonl" "cd .harnes? && sed -i 1d tasks/$TID/events.jsonl"
for c in "shopt -s extglob
sed -i 1d @(.harness)/tasks/$TID/events.jsonl" \
         "shopt -s extglob
cd @(.harness) && sed -i 1d tasks/$TID/events.jsonl" \
         "shopt -s extglob
cd .harnes+(s) && sed -i 1d tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: extglob patterns are read as literal names"
exit $fail
