#!/bin/bash
# HEAD's root tree holds a non-canonical entry (mode 100664, as old git wrote, or a zero-padded 040000):
# `git ls-tree` prints canonical modes, so ProcessGit.differs_from_commit compares equal listings and
# says "not dirty", while the recorded tree id differs from HEAD's source tree (pygit2's Git says dirty).
# The evidence record's "dirty" field changes with 2b1ff2b/4eb2ad2.
# exit 1: defect present; 0: fixed; 2: setup failure
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export PATH="$here/.venv/bin:$PATH"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
R=$(mktemp -d) || exit 2
trap 'rm -rf "$R"' EXIT
cd "$R" && git init -q && echo x > a.txt || exit 2
blob=$(git hash-object -w a.txt) || exit 2
t=$(printf "100664 blob $blob\ta.txt\n" | git mktree) || exit 2
c=$(git commit-tree "$t" -m m) && git update-ref refs/heads/master "$c" && git symbolic-ref HEAD refs/heads/master && git reset -q || exit 2
cd /tmp && python - "$R" <<'PY'
import sys
from pathlib import Path
from harness.gitio.git import Git
from harness.gitio.process_git import ProcessGit
root = Path(sys.argv[1])
a, b = Git(root), ProcessGit(root)
ha, hb = a.head(), b.head()
ta, tb = a.worktree_source_tree(), b.worktree_source_tree()
da, db = a.differs_from_commit(ta, ha), b.differs_from_commit(tb, hb)
print("trees", ta, tb, "| head source tree (pygit2)", a.source_tree(ha), "| dirty pygit2", da, "processes", db)
if (ta, ha) != (tb, hb):
    sys.exit(2)
sys.exit(1 if da != db else 0)
PY
