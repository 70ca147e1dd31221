#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# .harness/local/abs -> the record by its absolute path (the clone's scratch may hold such a link). Copied as a link
# on a line that runs more, the next command's path through the copy is judged by its text (read 43's A).
ln -s "$repo/.harness" .harness/local/abs && mkdir d || exit 2
[ "$(guard 'cp -a -t d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl')" = deny ] || { echo "setup: control not refused"; exit 2; }
fail=0
for cmd in 'cp -a --target=d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
