#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denials the newest rules bring:
# - `git checkout-index -a --prefix=export/` (git-checkout-index(1)'s export recipe, into a folder of the work
#   tree): the -a/--stdin refusal ignores the prefix, which puts every file under export/ (export/.harness/… is no
#   record); only a prefix spelled outside the repository is let through;
# - `ln -s "$PWD/.harness/local" x`: the link to .harness/local/ that F-0043's fix allows, spelled with $PWD;
#   _names_guarded_tail refuses any expanded word with a `.harness` part, before the .harness/local exception;
# - `ln -s "$PWD/src/hooks" lib/hooks`: an ordinary folder named hooks (React hooks…), refused when spelled with $PWD
#   (`ln -s ../src/hooks lib/hooks` is allowed).
# Exit 1 while any is refused, 0 when all are allowed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p src/hooks lib .harness/local && echo x > src/hooks/use.js || exit 2
[ "$(hk "ln -s ../.harness/local lib/x")" = allow ] && [ "$(hk "ln -s ../src/hooks lib/hooks")" = allow ] \
  || { echo "setup: the plain spellings are not allowed" >&2; exit 2; }
for c in "git checkout-index -a --prefix=export/" \
         "ln -s \"\$PWD/.harness/local\" lib/x" \
         "ln -s \"\$PWD/src/hooks\" lib/hooks"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
c="git checkout-index -a --prefix=export/"; ( eval "$c" ) && [ -f export/a.txt ] && git diff --quiet HEAD -- .harness \
  && echo "(run: $c wrote export/ only; .harness/ unchanged)"
[ $fail = 1 ] && echo "DEFECT: ordinary commands refused by the newest rules"
exit $fail
