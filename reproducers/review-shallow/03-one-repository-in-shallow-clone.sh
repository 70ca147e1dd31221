#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# The one-repository rule (harness/history/incoming.py renamed_by_merge, used by the merge guard
# `harness hook merge-guard` via history/hook_checks.py merge_problems, and by check_commit for the push guard) names each side by Git.repository_id, i.e.
# `git rev-list --max-parents=0`, with no shallow check. In a shallow clone this side's "root" is the clone's
# boundary, so the rule compares the other history's root with an arbitrary recent commit: a merge of an
# unrelated history whose root sorts BELOW this repository's first root (it renames the repository: approvals
# signed in that other repository would count here) but above the boundary is accepted by the merge guard
# of a shallow clone (a root hash is ground in a few tries), while the same merge is refused in a full clone.
# (Only the push guard in that clone was not tried here; the server / CI audit, which deepens, should refuse it.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$D"/common.inc
git commit -qm more --allow-empty --no-verify || exit 2
for i in $(seq 1 40); do  # a boundary that sorts below the root (so some root can lie between them)
  [[ "$(git rev-parse HEAD)" < "$(git rev-list --max-parents=0 HEAD)" ]] && break
  git commit -qm "more $i" --allow-empty --no-verify
done
ROOT=$(git rev-list --max-parents=0 HEAD); B=$(git rev-parse HEAD)
[[ "$B" < "$ROOT" ]] || exit 2
git clone -q --depth 1 "file://$R" "$T/shallow" || exit 2
cd "$T/shallow" || exit 2
for i in $(seq 1 400); do  # an unrelated root commit X with B < X < ROOT
  X=$(echo "other $i" | git commit-tree "$(git mktree </dev/null)")
  [[ "$B" < "$X" && "$X" < "$ROOT" ]] && break; X=
done
[ -n "$X" ] || exit 2
git branch other "$X"; git -C "$R" fetch -q "$T/shallow" other:other || exit 2
check() { # the merge guard's verdict on `git merge --no-commit other` in folder $1
  ( cd "$1" && git merge -q --no-commit --allow-unrelated-histories other >/dev/null 2>&1
    out=$(harness hook merge-guard 2>&1); rc=$?; git merge --abort 2>/dev/null
    grep -q one-repository <<<"$out" && echo refused || echo "accepted(rc=$rc)" )
}
full=$(check "$R"); shallow=$(check "$T/shallow")
echo "root ${ROOT:0:12}  other root ${X:0:12}  shallow boundary ${B:0:12}"
echo "full clone: $full   shallow clone: $shallow"
[ "$full" = refused ] || exit 2
[ "$shallow" = refused ] && exit 0
exit 1
