#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A linked worktree (`git worktree add`) of a shallow clone is not seen as shallow by the full path:
# Git.is_shallow() asks pygit2 (libgit2 1.9 looks for `shallow` in the worktree's own git folder,
# .git/worktrees/NAME/, not in the common folder where git keeps it). So there:
#  - `harness approve gate-change` does not refuse (docs/approvals.md: "a shallow clone ... cannot name the
#    repository: harness approve gate-change (and every kind) refuses there") and signs as `repository` the
#    clone's BOUNDARY commit, not the repository's first root commit;
#  - the commit hook (`harness hook validate`) accepts that approval, while the very same check in the main
#    checkout of the same clone, and the fast path's CommitFiles.repository_id (git rev-parse
#    --is-shallow-repository), say "cannot be told";
#  - the server and a full clone then refuse the human's honest approval ("given in another repository").
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$D"/common.inc
ssh-keygen -q -t ed25519 -N "" -C h -f "$T/key" || exit 2
echo "a@b $(cut -d' ' -f1,2 "$T/key.pub")" > .harness/allowed_signers
git add -A && git commit -qm approvers --no-verify && git commit -qm more --allow-empty --no-verify || exit 2
ROOT=$(git rev-list --max-parents=0 HEAD)
git clone -q --depth 1 "file://$R" "$T/shallow" || exit 2
cd "$T/shallow" && git worktree add -q "$T/wt" 2>/dev/null || exit 2
[ "$(git -C "$T/wt" rev-parse --is-shallow-repository)" = true ] || exit 2
BOUNDARY=$(git -C "$T/wt" rev-parse HEAD)
for d in "$T/shallow" "$T/wt"; do git -C "$d" config user.signingKey "$T/key"; done
cd "$T/wt" || exit 2
sed -i 's/critical_allowed: 0 /critical_allowed: 3 /' .harness/gate.yaml && git diff --quiet && exit 2
out=$(python "$D"/pty_approve.py gate-change 2>&1); rc=$?
echo "approve in the linked worktree of a shallow clone: exit $rc"
if [ $rc != 0 ]; then
  grep -q "shallow clone" <<<"$out" && { echo "refused as a shallow clone: fixed"; exit 0; }
  echo "$out" | tail -5; exit 2
fi
repo=$(tail -1 .harness/approvals.jsonl | python -c 'import json,sys; print(json.load(sys.stdin).get("repository"))')
echo "signed repository: $repo   (boundary: $BOUNDARY, first root: $ROOT)"
git add -A; harness hook validate >/dev/null 2>&1; echo "commit hook in the worktree: exit $?"
# the same staged change checked in the main checkout of the same shallow clone
cp .harness/gate.yaml .harness/approvals.jsonl "$T/shallow/.harness/" 2>/dev/null; cd "$T/shallow"; git add -A
harness hook validate >/dev/null 2>&1; echo "commit hook in the clone's main checkout: exit $?"
[ "$repo" = "$BOUNDARY" ] && [ "$repo" != "$ROOT" ] && exit 1
exit 0
