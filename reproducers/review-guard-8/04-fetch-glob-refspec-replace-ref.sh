#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The refspec check refuses a destination under refs/replace/ by its spelling: a glob destination that covers it
# (`git fetch OTHER '+refs/r*:refs/r*'`, `git fetch --update-head-ok OTHER '+refs/*:refs/*'`) is
# ALLOWED, and writes OTHER's refs/replace/<HEAD> here: git then shows another commit for HEAD.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "git fetch other refs/replace/x:refs/replace/x")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
head=$(git rev-parse HEAD)
O="$T/other"; git clone -q "$R" "$O" || exit 2
( cd "$O" && git commit -q --allow-empty -m forged && git update-ref "refs/replace/$head" HEAD && git reset -q --hard "$head" ) || exit 2
fail=0
for c in "git fetch -q $O '+refs/r*:refs/r*'" "git fetch -q --update-head-ok $O '+refs/*:refs/*'"; do
  git for-each-ref --format='delete %(refname)' refs/replace | git update-ref --stdin
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
  shown=$(git log -1 --format=%s HEAD)
  echo "guard: $a  refs/replace written: $(git for-each-ref refs/replace | grep -q . && echo yes || echo no), HEAD shown as '$shown' : $c"
  [ "$a" = allow ] && git for-each-ref refs/replace | grep -q . && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a fetch writes a replace ref through a glob refspec; the guard allows it"
exit $fail
