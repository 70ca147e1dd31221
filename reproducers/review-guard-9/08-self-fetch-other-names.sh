#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0045's fix (_this_repository) knows this repository as `.`, `.git`, a path to it or a word with `$`. Not:
# a `file://` URL of it, a remote NAMED here whose url is `.` (`git remote add self .`), an option with a separate value before
# the remote (`git fetch -j 1 . …`, `git push --receive-pack git-receive-pack . …`: the value is taken for the remote), nor `git pull` (not judged at all). Each is ALLOWED and
# overwrites the stamps' notes ref. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
NR=$(git for-each-ref --format='%(refname)' refs/notes | head -1); [ -n "$NR" ] || exit 2
control "git fetch . +HEAD:$NR" "git push . +HEAD:$NR"
orig=$(git rev-parse "$NR")
for c in "git fetch -q file://$R +HEAD:$NR" \
         "git remote add self . && git fetch -q self +HEAD:$NR" \
         "git push -q --receive-pack git-receive-pack . +HEAD:$NR" \
         "git fetch -q -j 1 . +HEAD:$NR" \
         "git pull -q --no-rebase . +HEAD:$NR"; do
  git update-ref "$NR" "$orig"; git remote remove self 2>/dev/null
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; now=$(git rev-parse "$NR")
  echo "guard: $a  notes ref rewritten: $([ "$now" != "$orig" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$now" != "$orig" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: the stamps' notes ref is overwritten by a self-fetch/push the guard does not recognise"
exit $fail
