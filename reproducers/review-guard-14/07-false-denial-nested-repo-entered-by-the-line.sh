#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denial. Where.nested is only the repositories between the top and the SESSION's cwd
# (hook_facts.nested_repositories(root, cwd), run.py:146). A line run from the top that enters the nested
# repository itself (`cd vendor/lib && git commit --no-verify …`, `git -C vendor/lib config core.hooksPath .hooks`)
# is judged as git in the outer repository and denied, while the very same git command is allowed when the
# session's cwd is already vendor/lib. The change claims git in a nested repository without a harness is exempt.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p vendor/lib && (cd vendor/lib && git init -q && git commit -q --allow-empty -m i) || exit 2
N=$R/vendor/lib
for c in "git commit --no-verify --allow-empty -m x" "git config core.hooksPath .hooks"; do
  [ "$(hk "$c" "$N")" = allow ] || { echo "setup: not allowed in vendor/lib itself: $c" >&2; exit 2; }
  echo "allow : (in vendor/lib) $c"
  for w in "cd vendor/lib && $c" "${c/git /git -C vendor/lib }"; do
    a=$(hk "$w"); echo "$a : (at top) $w"; [ "$a" = deny ] && fail=1
  done
done
[ $fail = 1 ] && echo "DEFECT: git in a nested repository is exempt only when the session already stands in it"
exit $fail
