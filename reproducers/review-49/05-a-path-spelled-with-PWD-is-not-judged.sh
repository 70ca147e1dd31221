#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# a/b/z -> ../.harness/tasks leads to a/.harness/tasks; moved up to a/ it leads to the record. Spelled with $PWD
# (a common absolute spelling), the source is skipped and the destination judged as a folder named `$PWD/a`.
mkdir -p a/b || exit 2
allowed 'ln -s ../.harness/tasks a/b/z'; ln -s ../.harness/tasks a/b/z || exit 2
[ "$(guard 'mv a/b/z a/')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'mv "$PWD/a/b/z" a/'
check deny 'mv a/b/z "$PWD/a/"'
check deny 'cp -P "$PWD"/a/b/z "$PWD/a/"'
exit $fail
