#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# fsck-clean-tree (duplicate entries etc. under .harness/) is skipped for a tree that an earlier commit of
# the same push/audit had as its ROOT tree: Trees.malformed_entries (and push_fast_path._sound) remember a
# tree as "sound" after checking only its own entries and, for a root, only its .harness child. When that
# tree later appears as a commit's .harness folder, its other subfolders are never checked.
# X (code-only: P's files plus a top-level folder `junk` holding two entries named `x`) then Y whose
# .harness is X's root tree: audit refuses Y on its own, passes X..Y. Exit 1 while it passes.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
P=$(git rev-parse HEAD); H=$(git rev-parse HEAD:.harness)
blob=$(echo x | git hash-object -w --stdin)
BAD=$(printf '100644 blob %s\tx\n100644 blob %s\tx\n' $blob $blob | git mktree) || exit 2
T=$( (git ls-tree $P; git ls-tree $H | grep -v '	.gitignore$'; printf '040000 tree %s\tjunk\n' $BAD) | git mktree)
X=$(git commit-tree $T -p $P -m x)
YT=$( (git ls-tree $P | grep -v '	.harness$'; printf '040000 tree %s\t.harness\n' $T) | git mktree)
Y=$(git commit-tree $YT -p $X -m y); Y1=$(git commit-tree $YT -p $P -m y-alone)
harness audit --from $P --to $Y1 >/dev/null 2>&1; alone=$?
harness audit --from $P --to $Y >/dev/null 2>&1; after_x=$?
echo "refs/heads/main $Y refs/heads/main $P" | harness hook push-guard origin "$B" >/dev/null 2>&1; push=$?
echo "audit of Y alone: $alone (1 = refused); audit of X then Y: $after_x; push guard of X then Y: $push"
[ "$alone" = 1 ] || exit 2
[ "$after_x" = 1 ] && [ "$push" = 1 ] && exit 0 || exit 1
