#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# operands() drops every word starting with `-`, also after `--`: a source named -z is not seen. The link rule
# (a/b/-z -> ../.harness/tasks moved to a/) and the copy rule (a file -x copied over a git hook or the ledger).
mkdir -p a/b || exit 2
allowed 'ln -s ../.harness/tasks a/b/-z'; ln -s ../.harness/tasks a/b/-z || exit 2
printf '#!/bin/sh\necho ran\n' > ./-x || exit 2
check deny 'mv -- -z ..' "$repo/a/b"
check deny 'cp -P -- -z ../' "$repo/a/b"
check deny 'cp -- -x .git/hooks/pre-commit'
check deny 'cp -- -x .harness/tasks/T/events.jsonl'
check deny 'install -- -x .git/hooks/pre-commit'
exit $fail
