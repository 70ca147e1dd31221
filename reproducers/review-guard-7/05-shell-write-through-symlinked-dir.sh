#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0028 made the Write/Edit quick path check a path by its real name as well as the name it is written under:
# the Write tool to h/tasks/T/events.jsonl (h -> .harness) is refused. The Bash judge does not: after
# `ln -s .harness h` (allowed), `echo ... >> h/tasks/T/events.jsonl`, `sed -i ... h/...` and `truncate` on the
# ledger through h are ALLOWED, while the same words on .harness/tasks/T/events.jsonl are refused.
# Each is checked to really change the ledger. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
[ "$(hk "echo x >> $L")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
a=$(hk "ln -s .harness h"); echo "guard: $a : ln -s .harness h"; ln -s .harness h || exit 2
fail=0
for c in "echo '{}' >> h/tasks/$TID/events.jsonl" "sed -i '\$d' h/tasks/$TID/events.jsonl" "truncate -s 0 h/tasks/$TID/events.jsonl"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed when run: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a shell command writes the ledger through a symlinked folder; the guard allows it"
exit $fail
