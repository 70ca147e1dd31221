#!/bin/bash
# ProcessGit decodes `git ls-tree -z` output as UTF-8 text: an untracked file at the repository root
# whose name is not UTF-8 makes `harness evidence` die with a UnicodeDecodeError traceback
# (before 2b1ff2b, pygit2 stripped .harness and the evidence was recorded).
# exit 1: defect present; 0: fixed; 2: setup failure
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export PATH="$here/.venv/bin:$PATH"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
R=$(mktemp -d) || exit 2
trap 'rm -rf "$R"' EXIT
cd "$R" && git init -q && echo x > a.txt && git add a.txt && git commit -qm m || exit 2
harness init >/dev/null 2>&1 && harness task new "T" >/dev/null 2>&1 || exit 2
git add -A && git commit -qm h || exit 2
echo y > "$(printf 'b\xff.txt')" || exit 2
out=$(harness evidence custom -- true 2>&1); rc=$?
if echo "$out" | grep -q "UnicodeDecodeError"; then echo "DEFECT: $(echo "$out" | tail -1)"; exit 1; fi
if [ $rc -ne 0 ]; then echo "unexpected failure rc=$rc: $out"; exit 2; fi
echo "recorded"; exit 0
