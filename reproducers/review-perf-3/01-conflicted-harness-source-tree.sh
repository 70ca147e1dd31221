#!/bin/bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# ProcessGit.worktree_source_tree must give Git(root).worktree_source_tree()'s answer (or its refusal) when
# .harness/ files are unmerged (a conflicted merge of task state) or name a missing object in the index.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
new() { git init -q -b main "$1"; git -C "$1" config user.email a@b; git -C "$1" config user.name n; }
new "$tmp/conf"; cd "$tmp/conf"
mkdir .harness; echo a > .harness/s.yaml; echo x > f; git add -A; git commit -qm 1
git checkout -qb other; echo b > .harness/s.yaml; git commit -qam b
git checkout -q main; echo c > .harness/s.yaml; git commit -qam c
git merge -q other >/dev/null 2>&1   # conflict in .harness/s.yaml: stages 1, 2, 3 in the index
new "$tmp/missing"; cd "$tmp/missing"
echo f > f; git add f; git commit -qm 1
git update-index --add --cacheinfo 100644,1234567890123456789012345678901234567890,.harness/x
cd "$here"
python - "$tmp/conf" "$tmp/missing" <<'PY'
import sys
from pathlib import Path
from harness.gitio.git import Git
from harness.gitio.process_git import ProcessGit
def ans(cls, root):
    try:
        return ("tree", cls(Path(root)).worktree_source_tree())
    except Exception as e:
        return ("refused", type(e).__name__)
bad = 0
for root in sys.argv[1:]:
    a, b = ans(Git, root), ans(ProcessGit, root)
    print(Path(root).name, "pygit2:", a, "process:", b)
    bad += a != b
sys.exit(1 if bad else 0)
PY
