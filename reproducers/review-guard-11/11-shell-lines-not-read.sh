#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A command line handed to the shell by a way the parser does not follow is never judged:
# `source`/`.` of standard input (here-string, here-document, pipe) or of a process substitution, `bash <(…)`,
# and `eval "$(echo '…')"`. `bash /dev/stdin <<< '…'` and `echo '…' | bash` ARE judged (and refused) —
# shell_commands.command_line / _fed_to_a_shell / FEEDS_A_SHELL know SHELLS, not `source`/`.`, and no reader
# looks inside `<(…)` handed to a shell. Each is ALLOWED and writes the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "bash /dev/stdin <<< 'echo x >> $L'" "echo 'echo x >> $L' | bash"
for c in ". /dev/stdin <<< 'echo x >> $L'" \
         $'source /dev/stdin <<X\necho x >> '"$L"$'\nX' \
         "echo 'echo x >> $L' | source /dev/stdin" \
         "source <(echo 'echo x >> $L')" \
         "bash <(echo 'echo x >> $L')" \
         "eval \"\$(echo 'echo x >> $L')\""; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a command line run by source/eval/<(…) is not judged; the guard allows it"
exit $fail
