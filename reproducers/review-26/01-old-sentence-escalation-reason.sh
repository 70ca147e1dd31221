#!/bin/bash
# An old ledger (text-only gate.evaluated events) whose iterations were stalled on a requirement
# blocker worded as an earlier harness wrote it: `harness converge` called that SPEC_AMBIGUITY before
# the change (its text starts with REQ-); now the sentence is classified "unknown" and the stall is
# reported as ARCHITECTURE_DEFECT.
source "$(dirname "$0")/lib.sh"
setup_repo; to_gating
OLD='["REQ-001 names test cases, but cites no run that lists its cases (a command with a junit report)"]'
for i in 1 2 3 4; do old_blocked_iteration "$OLD"; [ $i -lt 4 ] && back_to_gating; done
out=$($H converge --json 2>&1); echo "$out" | head -8; echo "LEDGER_AT=$D"
echo "$out" | grep -q 'SPEC_AMBIGUITY' || { echo "DEFECT: escalation reason is not SPEC_AMBIGUITY"; exit 1; }
exit 0
