#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0047's fix lets `git checkout-index --prefix=P` through whenever P is spelled outside the repository
# ("an export into another folder"). A P outside that is a link to the repository's top (an existing one: real_names
# follows links only into .harness/ or .git, not to the top; or one made on the same line) writes the index's files
# over the work tree: after `git read-tree HEAD~1` (allowed), `git checkout-index -a -f --prefix=$OUT/` is ALLOWED
# and puts the older, shorter ledger back. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
two_commits
control "git read-tree HEAD~1 && git checkout-index -a -f"
ln -s "$R" "$T/top" || exit 2   # a link that exists already (a human's), outside the repository
for c in "git read-tree HEAD~1 && git checkout-index -a -f --prefix=$T/top/" \
         "ln -s \"\$PWD\" $T/top2 && git read-tree HEAD~1 && git checkout-index -f --prefix=$T/top2/ $L"; do
  git reset -q --hard HEAD
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; n=$(wc -l < "$L")
  echo "guard: $a  ledger lines $N1 -> $n : $c"
  [ "$a" = allow ] && [ "$n" -lt "$N1" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: checkout-index --prefix through a link to the top writes the older ledger; the guard allows it"
exit $fail
