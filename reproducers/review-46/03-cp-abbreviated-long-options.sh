#!/usr/bin/env bash
# F-0052's rule matched cp's long options exactly; getopt takes any unambiguous prefix: `cp --arch LINK new &&
# echo x >> new/T/events.jsonl` wrote the ledger, allowed. Exit 1 while it does, 0 when denied, 2 on setup failure.
. "$(dirname "$0")/common.inc"
mkdir -p .harness/local/a && ln -s "$PWD/.harness/tasks" .harness/local/a/tk || exit 2
bad=0
for c in 'cp --arch .harness/local/a/tk .harness/local/tk2 && echo x >> .harness/local/tk2/T/events.jsonl' \
         'cp --no-deref .harness/local/a/tk .harness/local/tk2 && echo x >> .harness/local/tk2/T/events.jsonl'; do
  r=$(tried "$c"); echo "$r: $c"; [ "$r" = changed ] && bad=1; rm -f .harness/local/tk2; done
exit $bad
