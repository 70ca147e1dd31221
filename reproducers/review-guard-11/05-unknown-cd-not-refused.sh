#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A cd the guard cannot work out (`cd "${X:-.harness}"`, `read X; cd "$X"`) should make it refuse the commands after it. Two ways
# around that refusal:
# (a) through a variable: `X=$(ls -d .harn*); cd "$X"` — resolve() splits X's unknown value at its spaces
#     (`cd '$(ls' -d '.harn*)'`), and shell_folders.entered reads a cd of several words as a failing `cd a b`
#     ("[]": no new folder, nothing lost), though bash's `cd "$X"` has one word and enters .harness;
# (b) any cd the guard CAN work out after it (`cd .`, `cd -P .`, `pushd +0`, `cd /`): bypass.check_shell
#     lets it through while `lost` is set, then `lost, folders = _enter(seen, folders)` resets `lost` to None.
# Each then writes the ledger by a relative path, ALLOWED.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd \"\${X:-.harness}\"; echo x >> $E" "read X <<< .harness; cd \"\$X\"; echo x >> $E"
for c in "X=\$(ls -d .harn*); cd \"\$X\"; echo x >> $E" \
         "X=\$(ls -d .harn*) && pushd \"\$X\" >/dev/null && echo x >> $E" \
         "cd \"\${X:-.harness}\"; cd .; echo x >> $E" \
         "read X <<< .harness; cd \"\$X\" && cd -P . && echo x >> $E" \
         "pushd \"\${X:-.harness}\" >/dev/null; pushd +0 >/dev/null; echo x >> $E" \
         "cd \"\${X:-\$PWD/.harness}\"; cd /; cd -; echo x >> $E"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a cd the guard cannot work out is not refused (split by a variable, or cleared by a later cd)"
exit $fail
