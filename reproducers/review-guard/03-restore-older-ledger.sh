#!/usr/bin/env bash
# Restoring the ledger from an older revision is allowed when spelled without '--' or with '--source REV'.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
rc=0
for c in "git checkout HEAD~1 $LEDGER" "git restore --source HEAD~1 $LEDGER" "git checkout HEAD~1 .harness/approvals.jsonl"; do
  v=$(verdict "$c"); echo "$v: $c"; [ "$v" = allow ] && rc=1
done
echo "control: $(verdict "git checkout HEAD~1 -- $LEDGER"): git checkout HEAD~1 -- $LEDGER"
[ $rc = 1 ] && echo "DEFECT: an older ledger/approvals restore is allowed by spelling"
exit $rc
