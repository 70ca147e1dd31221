#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# regression_before_fix._not_before_confirmed requires --failing-at's commit to descend from the commit the
# finding's reproducer failed on top of (reproduction.head), whenever that object still exists. A history
# rewritten after the confirmation (`git commit --amend` of the buggy commit, a rebase onto an updated main)
# keeps the old commit as an unreachable object (reflog), so has_commit() is true and is_ancestor() false for
# EVERY commit in HEAD's history: --failing-at is refused forever, with a message that is false ("is before
# F-0001 was confirmed") and a hint naming a commit HEAD no longer has. HONEST flow: the bug is confirmed on
# commit C; its message is amended (same tree, same bug); the fix and its test are committed; the test is
# attached with --failing-at HEAD~1 (the amended C, which has the bug: the test fails there on the assertion).
# For a FIXED/VERIFIED finding this also means its test can never be replaced. (Once the old object is pruned
# the same command is accepted: the outcome depends on gc, not on the code.)
# Control: the same flow without the amend is accepted. Exit 1 while refused after the amend; 0 when fixed; 2 setup.
source "$D"/common.inc
source "$D"/flow.inc
flow() { # AMEND(0/1): the fix + its test committed, then attached --failing-at HEAD~1; prints F-0001's status
  [ "$1" = 1 ] && { git commit -q --amend -m "app: double" >/dev/null 2>&1 || exit 2; }
  printf 'def double(x):\n    return x + x\n' > app.py
  printf 'import app\n\ndef test_double_negative():\n    assert app.double(-3) == -6\n' > tests/test_double.py
  git add -A && git commit -qm "fix double, with its test" >/dev/null 2>&1 || exit 2
  out=$(harness finding regression F-0001 tests/test_double.py --failing-at HEAD~1 -- \
        "$PY" -m pytest -q -p no:cacheprovider tests/test_double.py 2>&1)
  grep -m1 '^harness:' <<<"$out" >&2; status F-0001
}
start=$(git rev-parse HEAD); cp -a .harness "$T/h0" || exit 2
c=$(flow 0); echo "control (no amend): F-0001 $c"; [ "$c" = FIXING ] || exit 2
git reset -q --hard "$start" && rm -rf .harness && cp -a "$T/h0" .harness && [ "$(status F-0001)" = CONFIRMED ] || exit 2
git diff --quiet "$start" -- app.py || exit 2
a=$(flow 1); echo "after amending the buggy commit's message: F-0001 $a"
git diff --quiet "$start" HEAD~1 -- app.py || { echo "setup: HEAD~1 is not the confirmed code" >&2; exit 2; }
[ "$a" = FIXING ] && exit 0
exit 1
