#!/usr/bin/env bash
# F-0061's fix gave up on a glob matching more than 64 paths (its cost bound) and left the word as written: with
# 70 files in .harness/local and tk -> ../tasks, `echo x >> .harness/local/*/T/events.jsonl` wrote the ledger,
# allowed. Exit 1 while it does, 0 when denied, 2 on setup failure.
. "$(dirname "$0")/common.inc"
ln -s ../tasks .harness/local/tk && for i in $(seq 1 70); do : > ".harness/local/f$i"; done || exit 2
c='echo x >> .harness/local/*/T/events.jsonl'
r=$(tried "$c"); echo "$r: $c"
[ "$r" != changed ]
