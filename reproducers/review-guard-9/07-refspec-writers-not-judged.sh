#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# _check_ref_writes judges refspecs on `git fetch`/`git push` lines and in `git config remote.X.fetch …`. Not:
# a remote's refspec set for one run (`git -c remote.o.fetch=… fetch o`), one written by `git remote add
# --mirror=fetch` (+refs/*:refs/*), and `git pull`'s refspecs (pull fetches into them first). Each is ALLOWED
# and writes OTHER's refs/replace/<HEAD> here, so git shows another commit for HEAD.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git fetch other '+refs/replace/*:refs/replace/*'" "git config remote.o.fetch '+refs/*:refs/*'"
head=$(git rev-parse HEAD)
O="$T/other"; git clone -q "$R" "$O" || exit 2
( cd "$O" && git commit -q --allow-empty -m forged && git update-ref "refs/replace/$head" HEAD && git reset -q --hard "$head" ) || exit 2
for c in "git -c remote.o.url=$O -c 'remote.o.fetch=+refs/replace/*:refs/replace/*' fetch -q o" \
         "git remote add --mirror=fetch m $O && git fetch -q --update-head-ok m" \
         "git pull -q --no-rebase $O '+refs/replace/*:refs/replace/*'"; do
  git for-each-ref --format='delete %(refname)' refs/replace | git update-ref --stdin; git remote remove m 2>/dev/null
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
  w=$(git for-each-ref refs/replace | grep -q . && echo yes || echo no)
  echo "guard: $a  refs/replace written: $w, HEAD shown as '$(git log -1 --format=%s HEAD)' : $c"
  [ "$a" = allow ] && [ "$w" = yes ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a replace ref is fetched through a refspec the guard does not read; it allows it"
exit $fail
