#!/usr/bin/env bash
# With .harness/local/tk -> ../tasks, a glob in the link's own name (`t*`, `*`) was not followed: `truncate -s0
# .harness/local/t*/T/events.jsonl` emptied the ledger, allowed. Exit 1 while a glob line changes the ledger, 0
# when each is denied, 2 on setup failure.
. "$(dirname "$0")/common.inc"
ln -s ../tasks .harness/local/tk || exit 2
bad=0
for c in 'truncate -s0 .harness/local/t*/T/events.jsonl' 'echo x >> .harness/local/*/T/events.jsonl' \
         'cd .harness/local && truncate -s0 t?/T/events.jsonl'; do
  r=$(tried "$c"); echo "$r: $c"; [ "$r" = changed ] && bad=1; done
exit $bad
