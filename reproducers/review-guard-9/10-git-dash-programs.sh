#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Only a program named `git` is judged as git (bypass._check_program). git's own programs in its exec path
# (`/usr/lib/git-core/git-update-ref`, `"$(git --exec-path)"/git-fast-import`, `…/git-commit`) are judged as
# any other program: writing a replace ref with them, and `git-commit -n` (no hooks), are ALLOWED.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
X=$(git --exec-path); [ -x "$X/git-update-ref" ] || exit 2
head=$(git rev-parse HEAD); other=$(git commit-tree -m forged "HEAD^{tree}") || exit 2
control "git update-ref refs/replace/$head $other" "git commit -n --allow-empty -m skipped"
for c in "$X/git-update-ref refs/replace/$head $other" \
         "printf 'reset refs/replace/$head\\nfrom $other\\n\\n' | \"\$(git --exec-path)\"/git-fast-import --quiet"; do
  git for-each-ref --format='delete %(refname)' refs/replace | git update-ref --stdin
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
  w=$(git for-each-ref refs/replace | grep -q . && echo yes || echo no)
  echo "guard: $a  replace ref written: $w, HEAD shown as '$(git log -1 --format=%s HEAD)' : $c"
  [ "$a" = allow ] && [ "$w" = yes ] && fail=1
done
git for-each-ref --format='delete %(refname)' refs/replace | git update-ref --stdin
c="$X/git-commit -n -q --allow-empty -m skipped"; a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
w=$([ "$(git log -1 --format=%s)" = skipped ] && echo yes || echo no)
echo "guard: $a  commit made with -n: $w : $c"; [ "$a" = allow ] && [ "$w" = yes ] && fail=1
[ $fail = 1 ] && echo "DEFECT: git's programs called by their own names bypass the git rules; the guard allows them"
exit $fail
