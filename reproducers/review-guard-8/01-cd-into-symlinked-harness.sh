#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# real_names re-judges only words holding a `/`. With h -> .harness and g -> .git already present (the premise of
# F-0038/F-0040's fix), `cd h && echo >> tasks/T/events.jsonl` and `cd g && echo > hooks/pre-commit` (also
# `pushd h`) are ALLOWED, while `cd h/ && ...` and `cd .harness && ...` are refused. Checked to really write.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
ln -s .harness h && ln -s .git g || exit 2
[ "$(hk "cd .harness && echo x >> tasks/$TID/events.jsonl")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
[ "$(hk "cd h/ && echo x >> tasks/$TID/events.jsonl")" = deny ] || { echo "setup: control 2 not denied" >&2; exit 2; }
fail=0
for c in "cd h && echo '{}' >> tasks/$TID/events.jsonl" "pushd h >/dev/null && truncate -s 0 tasks/$TID/events.jsonl"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
c="cd g && echo 'exit 0' > hooks/pre-commit"; before=$(cat .git/hooks/pre-commit | git hash-object --stdin)
a=$(hk "$c"); ( eval "$c" ); after=$(cat .git/hooks/pre-commit | git hash-object --stdin)
echo "guard: $a  pre-commit hook changed: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
[ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
[ $fail = 1 ] && echo "DEFECT: cd into a symlink to .harness/.git, then a relative path, writes the record; the guard allows it"
exit $fail
