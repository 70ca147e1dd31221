#!/usr/bin/env bash
# F-0052's rule judged "the line runs more" by comparing words: a second, identical copy carrying a redirect
# through the first one's new name looked like the same command. Exit 1 while the ledger is truncated, 0 when
# denied, 2 on setup failure.
. "$(dirname "$0")/common.inc"
mkdir -p .harness/local/a && ln -s "$PWD/.harness/tasks" .harness/local/a/tk || exit 2
c='cp -P .harness/local/a/tk .harness/local/tk2; cp -P .harness/local/a/tk .harness/local/tk2 > .harness/local/tk2/T/events.jsonl'
r=$(tried "$c"); echo "$r: $c"
[ "$r" != changed ]
