#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0043's fix refuses `git update-index --cacheinfo 120000,…` by the mode's spelling. git reads the mode as
# octal (strtoul base 8): `0120000,…` is the same symlink entry; `--index-info` reads entries from stdin; a
# tree holding a symlink (`git mktree`) put in the index by `git read-tree --prefix=` (no -u: allowed), or with
# `-u` and the tree's id (a hex id counts as "a commit id"). Then `git checkout-index` makes the link: each line
# is ALLOWED and leaves a symlink into .harness. Exit 1 while the defect exists, 0 when fixed.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
blob=$(printf %s .harness | git hash-object -w --stdin) || exit 2
blob2=$(printf %s ../.harness | git hash-object -w --stdin) || exit 2
tree=$(printf '120000 blob %s\th\n' "$blob2" | git mktree) || exit 2
control "git update-index --add --cacheinfo 120000,$blob,h && git checkout-index h"
check() { # NAME-OF-LINK COMMAND
  local link=$1 a real; a=$(hk "$2"); ( eval "$2" ) >/dev/null 2>&1
  real=$(realpath -m "$link" 2>/dev/null)
  echo "guard: $a  $link -> .harness: $([ "$real" = "$(realpath "$R")/.harness" ] && echo yes || echo no) : $2"
  [ "$a" = allow ] && [ "$real" = "$(realpath "$R")/.harness" ] && fail=1
  git read-tree HEAD; rm -rf "$(dirname "$link")/h" x; return 0
}
check h "git update-index --add --cacheinfo 0120000,$blob,h && git checkout-index h"
check h "printf '120000 $blob\\th\\n' | git update-index --index-info && git checkout-index h"
check x/h "git read-tree --prefix=x/ $tree && git checkout-index x/h"
check x/h "git read-tree -u --prefix=x/ $tree"
[ $fail = 1 ] && echo "DEFECT: a symlink index entry spelled another way becomes a link into .harness; the guard allows it"
exit $fail
