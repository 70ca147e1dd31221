#!/usr/bin/env bash
# `TreeSource.at(commit)` (tree_source.of_commit, how the gate reads a task's base) built its source field by
# field and left out `_git`, which since_tree and head_tree read: asking such a source about the working tree
# raised AttributeError. Exit 1 while it does, 0 once a commit's source answers as an index source does,
# 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" && git init -q -b main . && echo 'x = 1' > app.py && git add app.py \
  && git -c user.name=r -c user.email=r@example.com commit -q -m first || exit 2
python - <<'PY'
import sys
from harness.gitio.git import Git
from harness.gitio.tree_source import of_commit

git = Git(".")
head = git.head()
source = of_commit(git, head)
if source is None:
    sys.exit(2)
try:
    print("head tree:", source.head_tree())
    print("since:", source.since_tree(git.commit_tree(head), ["app.py"]))
except AttributeError as exc:
    print(f"AttributeError: {exc}")
    sys.exit(1)
PY
