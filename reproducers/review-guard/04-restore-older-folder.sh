#!/usr/bin/env bash
# Restoring .harness/ (or a task folder) from an older revision rewrites every ledger in it; allowed.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
rc=0
for c in "git checkout HEAD~1 -- .harness" "git restore --source=HEAD~1 .harness/tasks/$TASK" "git checkout main~1 -- .harness/tasks"; do
  v=$(verdict "$c"); echo "$v: $c"; [ "$v" = allow ] && rc=1
done
[ $rc = 1 ] && echo "DEFECT: a folder restore from an older revision is allowed (the same restore of the file is denied)"
exit $rc
