#!/bin/bash
# An old ledger (text-only gate.evaluated events): major finding F-0001 blocked four iterations in a
# row — open, open, open, then open again because its rejection was not refuted. Before the change
# `harness converge` escalated (REVIEW_DISAGREEMENT: the same finding never cleared); now the last
# sentence is keyed "finding_unrefuted", a different blocker from "finding_open", so the stall is no
# longer seen and the loop is told to CONTINUE.
source "$(dirname "$0")/lib.sh"
setup_repo; to_gating
OPEN='["Major finding F-0001 is open"]'
UNREFUTED='["Major finding F-0001 is open (rejected, but its reproducer has not passed on this source tree: harness finding reproduce F-0001)"]'
for i in 1 2 3; do old_blocked_iteration "$OPEN"; back_to_gating; done
old_blocked_iteration "$UNREFUTED"
out=$($H converge --json 2>&1); echo "$out" | head -8
echo "$out" | grep -q '"decision": "ESCALATE"' || { echo "DEFECT: the stalled finding is no longer detected (before: ESCALATE REVIEW_DISAGREEMENT)"; exit 1; }
exit 0
