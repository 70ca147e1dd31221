#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# w/v/.harness/a -> ../.harness/tasks stays inside its folder by text (w/v/.harness/tasks), so a copy of the folder
# is taken to keep it inside; copied under another name at the top (G), it leads to ../.harness/tasks: the record.
allowed 'mkdir -p w/v/.harness'; mkdir -p w/v/.harness || exit 2
allowed 'ln -s ../.harness/tasks w/v/.harness/a'; ln -s ../.harness/tasks w/v/.harness/a || exit 2
check deny 'cp -r w/v/.harness G'
check deny 'cp -a w/v/.harness G'
check deny 'mv w/v/.harness G'
exit $fail
