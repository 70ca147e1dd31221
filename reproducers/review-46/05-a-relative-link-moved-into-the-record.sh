#!/usr/bin/env bash
# Allowed lines make a link into the record: `ln -s ../tasks .harness/local/a/tk` (harmless where it is made:
# it leads to .harness/local/tasks), then `cp -P` of it one folder up, where ../tasks is the record. Exit 1 while
# that copy is allowed and the link leads into the record, 0 when the copy is denied, 2 on setup failure.
. "$(dirname "$0")/common.inc"
for c in 'mkdir -p .harness/local/a' 'ln -s ../tasks .harness/local/a/tk'; do
  [ "$(ask "$c")" = allow ] || exit 2; bash -c "$c" || exit 2; done
c='cp -P .harness/local/a/tk .harness/local/tk'
a=$(ask "$c"); echo "$a: $c"
[ "$a" = deny ] && exit 0
bash -c "$c"; real=$(readlink -f .harness/local/tk); echo "now .harness/local/tk -> $real"
[ "$real" = "$PWD/.harness/tasks" ] && exit 1 || exit 2
