#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# OLDER (the link case). .harness/local/valid (digests the commit hook trusts without a schema check) is guarded: `echo x >
# .harness/local/valid` and `git checkout REV -- '.harness/local/vali*'` are denied. It is reached unguarded
# (a) through a link inside .harness/local/ (real path in .harness/local, so F-0038's check skips it; the guard
# even lets `ln -s valid .harness/local/v` make one), and (b) by a glob pathspec spelled with `:(top)`, which
# F-0035/F-0036's exemption (head under .harness/local/, read from the top) now lets through.
# Exit 1 while one of these is allowed and writes the cache; 0 when denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
# a branch whose tree holds .harness/local/valid (made by the setup, as a human might have committed it)
( git checkout -qb b && echo 00000000000000000000000000000000 > .harness/local/valid && git add -f .harness/local/valid &&
  git commit -qnm valid && git checkout -q - ) >/dev/null 2>&1 || exit 2
rm -f .harness/local/valid; mkdir -p .harness/local
status=0
for CMD in "ln -s valid .harness/local/v && echo 0123456789abcdef0123456789abcdef >> .harness/local/v" \
           "git checkout b -- '.harness/local/vali*'" "echo x >> .harness/local/valid"; do
  rm -f .harness/local/valid .harness/local/v; git rm -q --cached --ignore-unmatch .harness/local/valid >/dev/null 2>&1
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; [ -e .harness/local/valid ] && ch=yes
  echo "guard: $ans; valid cache written: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch = yes ] && status=1
done
exit $status
