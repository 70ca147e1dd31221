#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0037's fix refuses `git checkout-index` naming `.harness…` (or -a); the check compares the operand's spelling
# with `.harness/` from the top. After `git read-tree HEAD~1` (allowed: no -u), `git checkout-index -f
# ./.harness/…`, `… --stdin` fed the path, `cd .harness && git checkout-index -f tasks/…` and
# `git -C .harness checkout-index -f tasks/…` are ALLOWED and write the older, shorter ledger over the work tree.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
L=$(git ls-files '.harness/tasks/*/events.jsonl') || exit 2; TL=${L#.harness/}
harness requirement add "Interrupted runs resume" --priority must >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -q -m two >/dev/null 2>&1 || exit 2
n1=$(wc -l < "$L")
[ "$(hk "git read-tree HEAD~1 && git checkout-index -f $L")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for c in "git read-tree HEAD~1 && git checkout-index -f ./$L" \
         "git read-tree HEAD~1 && echo $L | git checkout-index -f --stdin" \
         "git read-tree HEAD~1 && cd .harness && git checkout-index -f $TL" \
         "git read-tree HEAD~1 && git -C .harness checkout-index -f $TL"; do
  git reset -q --hard HEAD >/dev/null 2>&1
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $n1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$n1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: checkout-index puts an older ledger back under another spelling; the guard allows it"
exit $fail
