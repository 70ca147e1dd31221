#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0061's fix refuses `ln -s . r` (a link to the repository's top or above), but only for a source word with no
# expansion (bypass_files._check_link: `not expanded and _holds_the_record(…)`), and reads a glob literally.
# `ln -s "$(pwd)" r`, `ln -s "${PWD%/}" r`, `ln -s "$(dirname "$PWD")" up`, `ln -s ../rep? r` all make a link
# to the top (or above) and are ALLOWED; `… && echo >> r/.harness/tasks/T/events.jsonl` then writes the ledger
# (the link does not exist yet when the guard looks on disk for symlinks).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "ln -s . r && echo x >> r/$L" "ln -s \"\$PWD\" r && echo x >> r/$L"
for c in "ln -s \"\$(pwd)\" r && echo x >> r/$L" \
         "ln -s \"\${PWD%/}\" r && echo x >> r/$L" \
         "ln -s \"\$(dirname \"\$PWD\")\" up && echo x >> up/repo/$L" \
         "ln -s ../rep? r && echo x >> r/$L"; do
  ledger_case "$c"; rm -f r up
done
[ $fail = 1 ] && echo "DEFECT: a link to the repository's top spelled with an expansion or a glob; the guard allows it"
exit $fail
