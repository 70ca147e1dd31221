#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The push guard (fast path and full path alike) judges a pushed commit against the parent .git/info/grafts
# gives it, not the parent stored in the commit that `git push` sends. C1 truncates the ledger back to an
# older commit A's .harness (refused against its real parent P0); grafted onto A, it passes as code-only.
# GIT_NO_REPLACE_OBJECTS (AS_STORED) turns off replace refs, not grafts; libgit2 reads the graft file too.
# Exit 1 while the guard passes the push.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
git config advice.graftFileDeprecated false
A=$(git rev-parse HEAD)
( echo b > b.txt && harness evidence custom.x -- true && git add -A && git commit -qm p0 \
  && git push -q origin main ) >/dev/null 2>&1 || exit 2
P0=$(git rev-parse HEAD)
git rm -rq --cached .harness; rm -rf .harness/tasks; git checkout -q $A -- .harness
echo c > c.txt; git add -A; git commit -q --no-verify -m c1 >/dev/null 2>&1; C1=$(git rev-parse HEAD)
[ "$(git rev-parse $C1:.harness)" = "$(git rev-parse $A:.harness)" ] || exit 2
echo "refs/heads/main $C1 refs/heads/main $P0" > "$T/lines"
full_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1 || true
full_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1; before=$?
[ "$before" = 1 ] || exit 2                    # refused without the graft
echo "$C1 $A" > .git/info/grafts
full_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1; full=$?
fast_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1; fast=$?
# git itself follows the graft too (C1 no longer descends from P0): it wants --force for what is, as stored, a
# fast-forward. The remote then holds C1 with its stored parent P0 and the truncated ledger.
git push -q -f origin main >/dev/null 2>&1; push=$?
echo "without graft: $before; with graft: full $full, fast $fast; real git push -f (hooks on): $push"
# A refusal is any non-zero answer: the guard refuses to judge through a graft file with exit 2 (it cannot
# judge), as it does a shallow clone it cannot deepen (docs/exit-codes.md); the reviewer's script asked for 1.
[ "$full" != 0 ] && [ "$fast" != 0 ] && [ "$push" != 0 ] && exit 0 || exit 1
