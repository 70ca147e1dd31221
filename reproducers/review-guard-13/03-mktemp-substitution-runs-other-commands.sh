#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# entered() (shell_folders.py) takes any cd word starting `$(mktemp` to cd_targets.mktemp_folder, whose MKTEMP
# pattern (cd_targets.py line 23) lets the substitution hold ANYTHING after `mktemp` but ( ) ` $ -- so `;`, `&&`,
# `||`, `>` and further commands pass. The rest is shlex-split as if mktemp's own arguments: a later word becomes
# the "template", and the guard places the line in <top>/tmp.any-folder. What the substitution prints is the
# last command's output:
#   cd "$(mktemp -d >/dev/null; echo .harness)" && sed -i 1d tasks/T/events.jsonl   -> enters .harness
#   cd "$(mktemp -du; echo .harness)" && …    (-u: read as "makes no folder", i.e. no move at all)
# Also reached through a variable: tmp=$(mktemp -d >/dev/null; echo .harness) && cd "$tmp" && …
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "cd .harness && sed -i 1d tasks/$TID/events.jsonl" "cd \"\$(echo .harness)\" && sed -i 1d tasks/$TID/events.jsonl"
for c in "cd \"\$(mktemp -d >/dev/null; echo .harness)\" && sed -i 1d tasks/$TID/events.jsonl" \
         "cd \"\$(mktemp -du >/dev/null; echo .harness)\" && sed -i 1d tasks/$TID/events.jsonl" \
         "tmp=\$(mktemp -d >/dev/null; echo .harness) && cd \"\$tmp\" && sed -i 1d tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a mktemp substitution with more commands in it is read as mktemp's folder"
exit $fail
