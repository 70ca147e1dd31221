#!/usr/bin/env bash
# A recording refused because the caller's environment points git elsewhere (GIT_DIR) started measuring the
# source beside that check, so git wrote objects into the repository before the refusal. Exit 1 while the
# refusal leaves new objects, 0 when it writes nothing, 2 on setup failure.
. "$(dirname "$0")/common.inc"
echo new > untracked.py
before=$(find .git/objects -type f | wc -l)
GIT_DIR="$T/elsewhere" harness evidence custom -- true >/dev/null 2>&1; rc=$?
after=$(find .git/objects -type f | wc -l)
echo "refusal rc=$rc; loose objects $before -> $after"
[ "$rc" -eq 1 ] || exit 2
[ "$before" -eq "$after" ]
