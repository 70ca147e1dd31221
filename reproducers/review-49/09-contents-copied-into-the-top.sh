#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# A folder's contents copied into the top overwrite the record: `cp -rT d .` is refused, not `--no-target-directory`
# abbreviated, nor rsync's trailing-slash source (its way of saying "the contents").
mkdir -p d/.harness/tasks/T && echo forged > d/.harness/tasks/T/events.jsonl || exit 2
[ "$(guard 'cp -r --no-target-directory d .')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp -r --no-t d .'
check deny 'cp -a --no-target-dir d .'
check deny 'rsync -a d/ .'
exit $fail
