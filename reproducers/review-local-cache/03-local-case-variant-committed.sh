#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# _check_local (rule local-not-committed) compares the exact tree path `.harness/local`. A commit carrying the
# cache as `.harness/LOCAL/valid` (or `.harness/Local/…`) passes the commit check and `harness audit`; on a
# case-insensitive file system (macOS, Windows: git's defaults there) a clone that checks it out gets it at
# .harness/local/valid, the cache its commit hook trusts to skip schema checks. The control (exact spelling)
# must be refused. Exit 1 while the case variant is accepted by the commit hook and the audit; 0 when refused.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
base=$(git rev-parse HEAD)
git add -f .harness/local/valid && ! git commit -qm exact >/dev/null 2>&1 || { echo "setup: exact spelling not refused" >&2; exit 2; }
git rm -q -r --cached .harness/local >/dev/null 2>&1
mkdir -p .harness/LOCAL && cp .harness/local/valid .harness/LOCAL/valid && git add -f .harness/LOCAL/valid || exit 2
git commit -qm carry >/dev/null 2>&1; c=$?
echo "commit hook rc: $c"; git ls-tree -r --name-only HEAD | grep -i '^.harness/local/'
[ $c = 0 ] || exit 0
harness audit --from "$base" >/dev/null 2>&1; a=$?; echo "audit rc: $a"
[ $a = 0 ] && exit 1
exit 0
