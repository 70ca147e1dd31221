#!/usr/bin/env bash
# The stamp's fast path asked `git rev-parse HEAD^:.harness/` for a folder parent: git also names an entry
# literally called `.harness/` that way. A parent B holding such an entry (naming A's .harness tree) made C,
# with A's tree, stamp from the cache as code-only. Exit 1 while the defect exists, 0 fixed, 2 setup.
. "$(dirname "$0")/common.inc"
harness stamp HEAD >/dev/null 2>&1 || exit 2
X=$(git rev-parse HEAD:.harness)
{ printf '160000 .harness/\0'; echo -n "$X" | xxd -r -p; printf '100644 app.py\0'; git rev-parse HEAD:app.py | xxd -r -p; } > "$T/raw"
B=$(git commit-tree "$(git hash-object -t tree --literally -w "$T/raw")" -p HEAD -m B) || exit 2
C=$(git commit-tree "$(git rev-parse 'HEAD^{tree}')" -p "$B" -m C) || exit 2
git update-ref refs/heads/main "$C" || exit 2
quick=$(python -c 'from harness.history.stamp import quick_stamp_head as q; print(q())') || exit 2
echo "quick_stamp_head: $quick"
[ "$quick" = False ] && exit 0 || exit 1
