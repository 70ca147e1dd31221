#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0070's fix refuses a recursive copy INTO `.git`, `.git/info`, `.git/hooks`, `.git/refs` and `.harness`, but a
# recursive copy into the repository's TOP merges a folder named `.harness` (or `.git`) into the real one:
# `cp -r d/.harness .`, `cp -a d/.harness ./`, `cp -r d/. .`, `cp -rT d .`, `rsync -a d/ .`, `rsync -a d/.harness .`.
# bypass_files._check_copy judges the target `.` (neither record nor git machinery) and `./.harness` (a folder,
# not a protected file name). `tar -x` into `.` IS refused for exactly this reason. Each line below prepares a
# doctored copy of the record in d/ and copies it back over the real one; ALLOWED, and the ledger changes (and
# `cp -r d/. .` with d/.git/hooks/pre-commit plants a hook).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
prep="rm -rf d; mkdir d && cp -r .harness d/ && echo x >> d/$L"
control "cp -r d/tasks .harness" "rsync -a d/.harness/ .harness/"
for c in "$prep && cp -r d/.harness ." \
         "$prep && cp -a d/.harness ./" \
         "$prep && cp -r d/. ." \
         "$prep && cp -rT d ."; do
  ledger_case "$c"
done
for c in "$prep && rsync -a d/ ." "$prep && rsync -a d/.harness ."; do  # rsync: run when installed
  if command -v rsync >/dev/null; then ledger_case "$c"; else echo "guard: $(hk "$c")  (rsync not installed) : $c"; fi
done
rm -rf d
hook=.git/hooks/pre-commit; before=$(cat "$hook" 2>/dev/null | git hash-object --stdin)
c="rm -rf d; mkdir -p d/.git/hooks && printf '#!/bin/sh\nexit 0\n' > d/$hook && cp -r d/. ."
a=$(hk "$c"); bash -c "$c" >/dev/null 2>&1; after=$(git hash-object "$hook")
echo "guard: $a  pre-commit hook replaced: $([ "$before" != "$after" ] && echo yes || echo no) : $c"
[ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
[ $fail = 1 ] && echo "DEFECT: a recursive copy into the repository's top rewrites .harness/ (or .git/hooks); the guard allows it"
exit $fail
