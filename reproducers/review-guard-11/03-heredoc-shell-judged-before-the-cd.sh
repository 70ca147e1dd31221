#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A here-document fed to a shell (`bash <<EOF … EOF`, `cat <<EOF | sh`) is parsed and judged BEFORE every other
# command of the line (shell_commands._parse yields without_heredocs' scripts first), so a `cd .harness` written
# before the shell has not been seen yet: `cd .harness && bash <<'X'\necho >> tasks/T/events.jsonl\nX` is judged
# in the repository's top only, ALLOWED, and writes the ledger (`cd .harness && bash -c 'echo >> …'` is refused).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "cd .harness && bash -c \"echo x >> $E\""
for c in $'cd .harness && bash <<\'X\'\necho x >> '"$E"$'\nX' \
         $'pushd .harness >/dev/null; cat <<X | sh\necho x >> '"$E"$'\nX' \
         $'env -C .harness bash <<X\necho x >> '"$E"$'\nX'; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a here-document shell after a cd is judged as if before it; the guard allows it"
exit $fail
