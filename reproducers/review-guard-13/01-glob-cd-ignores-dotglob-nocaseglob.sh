#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A glob cd is read as "a stand-in folder plus each folder near the record it may match" (cd_targets.glob_folders),
# and cd_targets._matches (line 109-114) decides "may match" with the DEFAULT glob rules hard-coded: a leading dot
# is never matched by * or ?, and matching is case-sensitive (fnmatchcase). The line itself can change those
# rules first: `shopt -s dotglob` (or just setting GLOBIGNORE, which turns dotglob on), `shopt -s nocaseglob`.
#   shopt -s dotglob; cd */tasks && sed -i 1d T/events.jsonl        -> enters .harness/tasks
#   GLOBIGNORE=x; cd */tasks && sed -i 1d T/events.jsonl            -> same (GLOBIGNORE implies dotglob)
#   shopt -s nocaseglob; cd .HARNES? && sed -i 1d tasks/T/events.jsonl -> enters .harness
# The guard judges sed in <top>/any-folder/tasks (resp. <top>/any-folder) and allows; the ledger is edited.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "cd .harness/tasks && sed -i 1d $TID/events.jsonl" "cd .harnes? && sed -i 1d tasks/$TID/events.jsonl"
for c in "shopt -s dotglob; cd */tasks && sed -i 1d $TID/events.jsonl" \
         "GLOBIGNORE=x; cd */tasks && sed -i 1d $TID/events.jsonl" \
         "shopt -s nocaseglob; cd .HARNES? && sed -i 1d tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a glob cd is matched with default glob rules the line has turned off"
exit $fail
