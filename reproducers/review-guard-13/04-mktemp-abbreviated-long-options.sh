#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# cd_targets.mktemp_folder (lines 73-78) knows mktemp's long options only spelled in full (`--tmpdir`,
# `--directory`). GNU mktemp (getopt_long) takes any unambiguous abbreviation: `--tmp=DIR`, `--dir`, `--direc`.
#   cd "$(mktemp -d --tmp=.harness)"  -> the guard: /tmp/tmp.any-folder; really .harness/tmp.XXXXXXXXXX
#   cd "$(mktemp --dir -p .harness)"  -> the guard: "makes no folder" (no -d seen), i.e. no move; really .harness/tmp.X
# after which `sed -i 1d ../tasks/T/events.jsonl` edits the ledger (judged as a path outside the repository).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "cd \"\$(mktemp -d --tmpdir=.harness)\" && sed -i 1d ../tasks/$TID/events.jsonl" \
        "cd \"\$(mktemp --directory -p .harness)\" && sed -i 1d ../tasks/$TID/events.jsonl"
for c in "cd \"\$(mktemp -d --tmp=.harness)\" && sed -i 1d ../tasks/$TID/events.jsonl" \
         "cd \"\$(mktemp --dir -p .harness)\" && sed -i 1d ../tasks/$TID/events.jsonl" \
         "cd \"\$(mktemp --direc --tmpd=.harness)\" && sed -i 1d ../tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: mktemp's abbreviated long options are not read"
exit $fail
