#!/usr/bin/env bash
# The measurement clears the flags that make `git add` skip a file on disk with one `git update-index
# --no-assume-unchanged --no-skip-worktree`, and git applies only the first: a skip-worktree file edited on disk
# kept its staged content in the recorded tree while the command ran against the edit. Exit 1 while the
# recorded tree is HEAD's though app.py differs, 0 when the edit is measured, 2 on setup failure.
. "$(dirname "$0")/common.inc"
git update-index --skip-worktree app.py && echo edited > app.py || exit 2
harness evidence custom -- true >/dev/null 2>&1 || exit 2
tree=$(python3 -c "import json,glob; print(json.load(open(glob.glob('.harness/tasks/*/evidence/custom.json')[0]))['tree'])")
echo "recorded tree $tree; HEAD's $(git rev-parse 'HEAD^{tree}')"
[ "$tree" != "$(git rev-parse 'HEAD^{tree}')" ]
