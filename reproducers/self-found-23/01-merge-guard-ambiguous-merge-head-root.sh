#!/usr/bin/env bash
# Defect: harness/history/hook_checks.py merge_problems (`harness hook merge-guard`, run while a merge is concluded)
# asks incoming.renamed_by_merge of HEAD and MERGE_HEAD, which reads each one's root `.harness` entry through
# _carries_harness -> TreeSource.oid. A MERGE_HEAD whose root `.harness` entry is AMBIGUOUS (160755: a gitlink to git,
# an executable file to libgit2) makes that read raise ListingRefused, which nothing catches: the merge guard exits 2
# ("invalid or could not run") with a bare message, and the named [fsck-clean-tree] refusal check_commit already
# found for that very commit is never printed. _second_adoption answers the same read with a named rule (F-0443).
# Correct: the merge guard exits 1 and names a rule for the incoming commit (fsck-clean-tree, and/or one-repository
# failing closed), never exit 2.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
mkdir .harness && printf 'version: 1\nevidence:\n  build:\n    command: ["true"]\n' > .harness/config.yaml || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) \
  >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
A=$(git rev-parse HEAD) || exit 2
# X: a child of A whose root `.harness` entry has mode 160755 (git mktree keeps the mode as given).
Xt=$( { git ls-tree "$A" | grep -v "	.harness\$"; printf '160755 commit %s\t.harness\n' "$A"; } | git mktree ) || exit 2
git cat-file tree "$Xt" | grep -aq '160755 .harness' || { echo "setup: mode not kept"; exit 2; }
X=$(git commit-tree -p "$A" -m "X: odd .harness" "$Xt") || exit 2
echo b > b.txt && git add b.txt && git commit -qm "B on main" >/dev/null 2>&1 || { echo "setup: commit B"; exit 2; }
# A merge of X being concluded: MERGE_HEAD names it, as `git merge --no-commit` leaves it.
git rev-parse "$X" > .git/MERGE_HEAD || exit 2

harness hook merge-guard >"$T/m.out" 2>&1; got=$?
echo "harness hook merge-guard: exit $got"; cut -c1-200 "$T/m.out" | head -12
if [ "$got" = 1 ] && grep -q '\[' "$T/m.out"; then
  echo "fixed: the merge is refused by a named rule (exit 1)"; exit 0
fi
if [ "$got" = 2 ]; then
  echo "DEFECT: renamed_by_merge's read of MERGE_HEAD's ambiguous root aborts the merge guard (exit 2, no rule)"
  exit 1
fi
echo "unexpected outcome (exit $got)"; exit 2
