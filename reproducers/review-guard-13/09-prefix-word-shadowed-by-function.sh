#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A cd behind a prefix (`nice cd`, `env cd`, `timeout 5 cd`) is now read as run in a child: it moves nothing
# (shell_commands._strip_prefixes, line 298: in_child unless the word is command/builtin/time). But the line can
# make the prefix word a shell FUNCTION (or an alias, with expand_aliases) that runs its arguments in the shell
# itself; the guard strips the word as the program all the same:
#   nice() { "$@"; }; nice cd .harness && sed -i 1d tasks/T/events.jsonl           (allowed; ledger edited)
#   env() { builtin "$@"; }; env cd .harness && sed -i 1d tasks/T/events.jsonl
#   shopt -s expand_aliases; alias nice=builtin <newline> nice cd .harness && sed …
# (The guard also allowed the function form before the change; the change now states such a cd "moves nothing".)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "cd .harness && sed -i 1d tasks/$TID/events.jsonl" "builtin cd .harness && sed -i 1d tasks/$TID/events.jsonl"
for c in "nice() { \"\$@\"; }; nice cd .harness && sed -i 1d tasks/$TID/events.jsonl" \
         "env() { builtin \"\$@\"; }; env cd .harness && sed -i 1d tasks/$TID/events.jsonl" \
         "shopt -s expand_aliases; alias nice=builtin
nice cd .harness && sed -i 1d tasks/$TID/events.jsonl"; do
  ledger_case "$c"
done
[ $fail = 1 ] && echo "DEFECT: a prefix word the line redefines as a function/alias still makes its cd 'run in a child'"
exit $fail
