#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The implementer's own read of the F-0147 fix: the audit no longer reads a checkout's cache of documents
# known valid, but the local commit hook still does (it is the hook's speed), and the tool guard lets the
# agent write that cache: `.harness/local/` is per-clone scratch to it. A digest appended there by the shell
# makes the commit hook skip the schema check of a ledger the schema refuses.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
a=$(hk "echo 0123456789abcdef0123456789abcdef >> .harness/local/valid"); echo "guard: $a : echo DIGEST >> .harness/local/valid"
b=$(hk "cp /tmp/digests.txt .harness/local/valid"); echo "guard: $b : cp /tmp/digests.txt .harness/local/valid"
[ "$a" = allow ] || [ "$b" = allow ] && { echo "DEFECT: the agent may write the cache that vouches for ledgers"; exit 1; }
exit 0
