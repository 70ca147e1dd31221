#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# An alias defined on the line is not read: `alias w='tee -a'` then `echo x | w .harness/tasks/T/events.jsonl`
# (a later line of the same command) writes the ledger, `alias c='cd .harness'` then `c` enters .harness unseen,
# and `alias g='git commit --no-verify'` then `g -m x` commits without the hooks. All ALLOWED; the same
# commands written out are refused. (bash expands aliases of earlier lines of a `bash -c`/eval string once
# `shopt -s expand_aliases` is on; an agent host's shell snapshot usually has it on already.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
E=tasks/$TID/events.jsonl
control "echo x | tee -a .harness/$E" "cd .harness; echo x >> $E" "git commit --no-verify -q --allow-empty -m skipped"
for c in $'shopt -s expand_aliases\nalias w=\'tee -a\'\necho x | w .harness/'"$E" \
         $'shopt -s expand_aliases\nalias c=\'cd .harness\'\nc\necho x >> '"$E"; do
  ledger_case "$c"
done
c=$'shopt -s expand_aliases\nalias g=\'git commit --no-verify -q --allow-empty\'\ng -m skipped'
base=$(git rev-parse HEAD); a=$(hk "$c"); bash -c "$c" >/dev/null 2>&1
w=$([ "$(git log -1 --format=%s)" = skipped ] && echo yes || echo no); git reset -q --hard "$base"
echo "guard: $a  commit made with --no-verify: $w : $c"; [ "$a" = allow ] && [ "$w" = yes ] && fail=1
[ $fail = 1 ] && echo "DEFECT: an alias defined on the line runs a refused command; the guard allows it"
exit $fail
