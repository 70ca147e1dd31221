#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The guard refuses `echo ... > .git/hooks/pre-commit` and any core.hooksPath setting. After `ln -s .git g`
# (allowed), the same words through the symlink are ALLOWED: `echo 'exit 0' > g/hooks/pre-commit`,
# `rm g/hooks/pre-commit`, `printf '[core]\n\thooksPath = /dev/null\n' >> g/config`. Each switches the harness's
# hooks off; checked by then committing a wiped ledger, which git's hooks refuse otherwise.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "echo 'exit 0' > .git/hooks/pre-commit")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
cp .git/hooks/pre-commit "$T/pc" && cp .git/config "$T/cfg" || exit 2
L=$(ls .harness/tasks/*/events.jsonl) || exit 2; base=$(git rev-parse HEAD)
wipe_and_commit() { : > "$L"; git add "$L" && git commit -q -m tidy >/dev/null 2>&1; }
wipe_and_commit && { echo "setup: control commit not refused" >&2; exit 2; }
a=$(hk "ln -s .git g"); echo "guard: $a : ln -s .git g"; ln -s .git g || exit 2
fail=0
for c in "echo 'exit 0' > g/hooks/pre-commit" "rm g/hooks/pre-commit" "printf '[core]\n\thooksPath = /dev/null\n' >> g/config"; do
  git reset -q --hard "$base"; cp "$T/pc" .git/hooks/pre-commit; cp "$T/cfg" .git/config
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
  wipe_and_commit && made=yes || made=no
  echo "guard: $a  commit wiping the ledger then made: $made : $c"
  [ "$a" = allow ] && [ $made = yes ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: git's hooks and config edited through a symlink to .git; the guard allows it, the hooks are off"
exit $fail
