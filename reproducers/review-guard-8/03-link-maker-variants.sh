#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# _check_link misses: `ln -st DIR SRC` (-t glued after -s: the target folder is taken for the source),
# `ln -s "$PWD/.harness" h` (a variable; the literal absolute path is refused), and a symlink made by git itself
# (`git update-index --add --cacheinfo 120000,<blob ".harness">,h` then `git checkout-index h`). Each really leaves
# a symlink into .harness. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "ln -s .harness h")" = deny ] && [ "$(hk "ln -s $R/.harness h")" = deny ] || { echo "setup: controls not denied" >&2; exit 2; }
blob=$(printf %s .harness | git hash-object -w --stdin) || exit 2
mkdir sub || exit 2
fail=0
check() { # NAME-OF-LINK COMMAND...
  local link=$1; shift; local a; a=$(hk "$*"); rm -rf "$link"; ( eval "$*" ) >/dev/null 2>&1
  local real; real=$(realpath -m "$link" 2>/dev/null)
  echo "guard: $a  $link -> .harness: $([ "$real" = "$(realpath "$R")/.harness" ] && echo yes || echo no) : $*"
  [ "$a" = allow ] && [ "$real" = "$(realpath "$R")/.harness" ] && fail=1
  git rm -q --cached "$link" >/dev/null 2>&1; rm -rf "$link"
}
check sub/.harness 'ln -st sub ../.harness'
check h2 'ln -s "$PWD/.harness" h2'
check h3 "git update-index --add --cacheinfo 120000,$blob,h3 && git checkout-index h3"
[ $fail = 1 ] && echo "DEFECT: a symlink to .harness is made by a command the guard allows"
exit $fail
