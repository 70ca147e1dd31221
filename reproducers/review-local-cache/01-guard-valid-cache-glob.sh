#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The tool guard refuses `echo K >> .harness/local/valid` (guarded_paths.protected/VALID_CACHE), but the same
# write spelled with a glob (`>> .harness/local/vali*`, which bash expands to the one cache file) is allowed:
# glob_protected/_could_be_state treat everything under .harness/local/ as free and only the PROTECTED_NAMES
# are matched against globs, so VALID_CACHE is never consulted for a glob. The write lands in the cache.
# Exit 1 while the guard allows the glob write and the cache changes; 0 when it is denied.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control 'echo 0123456789abcdef0123456789abcdef >> .harness/local/valid'
[ -f .harness/local/valid ] || exit 2
cmd='echo 0123456789abcdef0123456789abcdef >> .harness/local/vali*'
before=$(git hash-object .harness/local/valid); a=$(hk "$cmd")
[ "$a" = allow ] && bash -c "$cmd"
after=$(git hash-object .harness/local/valid)
echo "guard: $a  cache changed: $([ "$before" != "$after" ] && echo yes || echo no) : $cmd"
[ "$a" = allow ] && [ "$before" != "$after" ] && exit 1
exit 0
