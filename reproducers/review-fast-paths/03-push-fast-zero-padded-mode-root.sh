#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The code-only push fast path passes a commit whose root tree git's fsck rejects (treeNotSorted), which the
# full push guard refuses (fsck-clean-tree): push_fast_path._tree_entries takes "is a tree" from the mode's
# spelling (== b"40000"), so a folder written with a zero-padded mode (040000) is ordered as a file, where git
# (and pygit2's type_str) order it as `name/`. Root: ..., `z` (040000 folder), `z-b` (file).
# Exit 1 while the fast answer differs from the full one.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
P=$(git rev-parse HEAD)
blob=$(echo x | git hash-object -w --stdin); SUB=$(printf '100644 blob %s\tf\n' $blob | git mktree)
CT=$(python3 - "$(git rev-parse "$P^{tree}")" $SUB $blob <<'PY'
import subprocess, sys
ptree, sub, blob = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
raw = subprocess.run(["git", "cat-file", "tree", ptree], capture_output=True, check=True).stdout
body = raw + b"040000 z\0" + sub + b"100644 z-b\0" + blob
print(subprocess.run(["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"], input=body,
                     capture_output=True, check=True).stdout.decode().strip())
PY
) || exit 2
C=$(git commit-tree $CT -p $P -m code-only)
git fsck --no-dangling 2>&1 | grep -q treeNotSorted || exit 2
echo "refs/heads/main $C refs/heads/main $P" > "$T/lines"
full_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1; full=$?
fast_push_guard origin "$B" < "$T/lines" >/dev/null 2>&1; fast=$?
echo "full push guard: $full; fast path (harness hook push-guard): $fast"
[ "$full" = "$fast" ] && exit 0 || exit 1
