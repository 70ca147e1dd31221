#!/usr/bin/env bash
# Defect: harness/history/incoming.py _second_adoption asks _carries_harness of every merge base of two adopting
# parents, and _carries_harness reads TreeSource.oid(".harness"), which raises ListingRefused when the base's root
# `.harness` entry is AMBIGUOUS (here 160755: a gitlink to git, an executable file to libgit2). unreadable_trees only
# judges the commit's tree and its parents' trees, not merge bases, so nothing catches it: `harness audit` (and the
# push guard / pre-receive, which run check_commit) die with exit 2 ("invalid or could not run"), a bare message with
# no commit and no rule, and every other commit's named refusal in the range is lost. Before 05b590ec the same
# range audited with exit 0 (the base counted as carrying .harness).
# Correct: a merge base whose root listing the readers refuse is answered, not left to crash the run: take it as
# carrying .harness (as rewrite._with_harness does for an old tip) or refuse by name; either way the audit exits 1
# naming the rule (here the range holds P1 and P2, children of the refused base, which unreadable_trees itself
# refuses with [fsck-clean-tree]), never exit 2.
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
A=$(git rev-parse HEAD) && At=$(git rev-parse "HEAD^{tree}") || exit 2
# B: a root commit whose root `.harness` entry has mode 160755 (git mktree keeps the mode as given).
Bt=$( { git ls-tree "$A" | grep -v "	.harness\$"; printf '160755 commit %s\t.harness\n' "$A"; } | git mktree ) || exit 2
git cat-file tree "$Bt" | grep -aq '160755 .harness' || { echo "setup: mode not kept"; exit 2; }
B=$(git commit-tree -m "B: odd .harness" "$Bt") || exit 2
# P1, P2: two children of B that each hold a normal .harness folder; M merges them (merge base: B).
P1=$(git commit-tree -p "$B" -m P1 "$At") || exit 2
bb=$(echo b | git hash-object -w --stdin) || exit 2
P2t=$( { git ls-tree "$At"; printf '100644 blob %s\tb.txt\n' "$bb"; } | git mktree ) || exit 2
P2=$(git commit-tree -p "$B" -m P2 "$P2t") && M=$(git commit-tree -p "$P1" -p "$P2" -m M "$P2t") || exit 2
[ "$(git merge-base "$P1" "$P2")" = "$B" ] || { echo "setup: merge base is not B"; exit 2; }

harness audit --from "$B" --to "$M" >"$T/a.out" 2>&1; got=$?
echo "harness audit --from B --to M: exit $got"; grep -v '^    ' "$T/a.out" | cut -c1-200
if [ "$got" = 1 ] && grep -q '\[' "$T/a.out"; then
  echo "fixed: the range is refused by a named rule (exit 1)"; exit 0
fi
if [ "$got" = 2 ] && grep -q "has mode 160755" "$T/a.out"; then
  echo "DEFECT: _second_adoption's read of the ambiguous merge base aborts the audit (exit 2, no rule, no commit named)"
  exit 1
fi
echo "unexpected outcome (exit $got)"; exit 2
