#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The code-only commit fast path (launch.py -> fast_path.staged_nothing_to_judge, and the native shim's
# copy of it) decides "no merge is being concluded" with `git rev-parse -q --verify MERGE_HEAD`. That reads
# MERGE_HEAD as a ref file, which must hold a full object id. `git commit` itself reads MERGE_HEAD line by
# line with get_merge_parent(), which accepts any revision (an abbreviated id too), and the full check
# (Revisions.merge_heads -> pygit2 repo[prefix]) also resolves an abbreviated id. So with MERGE_HEAD
# holding the merged commit's abbreviated id, the full `hook validate` judges the merge against both
# parents and refuses it (here: a `-s ours` merge drops the other side's task: tasks-never-deleted), while
# the fast path and the native shim answer "code only" (exit 0) and `git commit` records the merge commit.
# Exit 1 while the fast answers differ from the full one (and the merge commit is made), 0 once they agree.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
full_validate() { python -c 'import sys; from harness.cli.main import main; sys.argv=["harness", *sys.argv[1:]]; sys.exit(main())' hook validate; }
main=$(git symbolic-ref --short HEAD) || exit 2
{ git checkout -qb other && harness task new u && git add -A && git commit -qm "task u" \
  && git checkout -q "$main" && echo b > b.txt && git add b.txt && git commit -qm code \
  && git merge -q --no-commit -s ours other; } >/dev/null 2>&1 || exit 2
full_validate >/dev/null 2>&1; full_hex=$?
[ "$full_hex" = 1 ] || { echo "setup: the full check does not refuse the merge ($full_hex)" >&2; exit 2; }
sha=$(git rev-parse other) && echo "${sha:0:12}" > .git/MERGE_HEAD || exit 2
full_validate >/dev/null 2>&1; full=$?
harness hook validate >/dev/null 2>&1; fast=$?
.git/hooks/pre-commit >/dev/null 2>&1; shim=$?
git commit -qm merge >/dev/null 2>&1; commit=$?
parents=$(git rev-list --parents -n1 HEAD | wc -w)
echo "full hook validate (full id: $full_hex, abbreviated: $full); launch fast path: $fast; native shim: $shim;" \
     "git commit: $commit, HEAD has $((parents - 1)) parent(s)"
[ "$full" = "$fast" ] && [ "$full" = "$shim" ] && exit 0 || exit 1
