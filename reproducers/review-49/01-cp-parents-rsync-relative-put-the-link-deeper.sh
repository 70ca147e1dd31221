#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# x/y/z -> ../../../../.harness/tasks leads two folders above the repository (nothing). `cp --parents -P x/y/z q/r/`
# puts it at q/r/x/y/z, from where it leads to .harness/tasks; the guard judges it at q/r/z (and q/r) only.
mkdir -p x/y q/r || exit 2
allowed 'ln -s ../../../../.harness/tasks x/y/z'; ln -s ../../../../.harness/tasks x/y/z || exit 2
[ "$(guard 'cp -P x/y/z q/r/x/y/')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp --parents -P x/y/z q/r/'
check deny 'rsync -lR x/y/z q/r/'
check deny 'rsync -l --relative x/y/z q/r/'
exit $fail
