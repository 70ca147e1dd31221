#!/bin/bash
# HEAD names a commit whose object is gone (a damaged clone, a pruned object): ProcessGit's single
# rev-parse (`--verify -q HEAD^{commit}`) fails as it does on an unborn branch, so `harness evidence`
# records the run with commit null, as if nothing were committed (before 2b1ff2b pygit2 refused it).
# (Found beside it: a HEAD file holding an annotated tag's id is now recorded as the commit the tag
# names, where pygit2 recorded the tag's id in the `commit` field: kept on purpose.)
# exit 1: defect present (recorded); 0: fixed (refused, naming HEAD); 2: setup failure
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export PATH="$here/.venv/bin:$PATH"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
R=$(mktemp -d) || exit 2
trap 'rm -rf "$R"' EXIT
cd "$R" && git init -q && echo x > a.txt && git add a.txt && git commit -qm m || exit 2
harness init >/dev/null 2>&1 && harness task new "T" >/dev/null 2>&1 || exit 2
git add -A && git commit -qm h || exit 2
head=$(git rev-parse HEAD) || exit 2
rm -f ".git/objects/${head:0:2}/${head:2}" || exit 2
git cat-file -e "$head" 2>/dev/null && exit 2   # the object must really be gone
out=$(harness evidence custom -- true 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  echo "DEFECT: recorded with HEAD's commit missing: $(grep -o '"commit": [^,]*' .harness/tasks/*/evidence/custom.json)"
  exit 1
fi
if echo "$out" | grep -q "HEAD"; then echo "refused: $(echo "$out" | head -1)"; exit 0; fi
echo "failed without naming HEAD (rc=$rc): $out"; exit 1
