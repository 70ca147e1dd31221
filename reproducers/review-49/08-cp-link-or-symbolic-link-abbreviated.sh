#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# `cp --li` (= --link) makes a hard link to the ledger, `cp --sym` (= --symbolic-link) a symbolic one; _links()
# knows only the whole spellings. Through the hard link, a write is judged as some other file's.
[ "$(guard 'cp --link .harness/tasks/T/events.jsonl e')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp --li .harness/tasks/T/events.jsonl e'
check deny 'cp --lin .harness/tasks/T/events.jsonl e'
check deny 'cp --sym .harness/tasks/T/events.jsonl e'
exit $fail
