#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denials of the new checks. `git checkout-index -a -f --prefix=DIR/` is git's documented way to export the
# index into another folder (git-checkout-index(1) EXAMPLES); it writes nothing in the work tree, yet F-0037's
# check refuses any `-a`. `ln -s .harness/local/junit.xml junit.xml` links the per-clone scratch folder, which
# every other check treats as free, yet _check_link refuses any `.harness/…` source.
# Exit 1 while either is refused, 0 when both are allowed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
fail=0
for c in "git checkout-index -a -f --prefix=$T/export/" "ln -s .harness/local/junit.xml junit.xml"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
[ "$(hk "echo x > .harness/local/junit.xml")" = allow ] || { echo "setup: .harness/local not free" >&2; exit 2; }
[ $fail = 1 ] && echo "DEFECT: legitimate commands refused"
exit $fail
