#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# F/s -> .. (judged at its new place: harmless) and F/a -> s/../.harness/tasks (by text inside F, not walked): the
# kernel takes `..` from where s leads, so in q/F, a leads to q/../.harness/tasks, the record. Each link is made by a
# command of its own, in F (where the agent's shell is after `cd w/v/F`).
mkdir -p w/v/F q || exit 2
allowed 'ln -s .. s' "$repo/w/v/F"; ln -s .. w/v/F/s || exit 2
allowed 'ln -s s/../.harness/tasks a' "$repo/w/v/F"; ln -s s/../.harness/tasks w/v/F/a || exit 2
check deny 'cp -r w/v/F q/F'
exit $fail
