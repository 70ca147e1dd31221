#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found with 02: an old ledger's "Major finding F-0001 is open" followed by "... is open (rejected, but its
# reproducer has not passed on this code)" is one stalled blocker (the words before "(" are equal), but the
# same iterations recorded with keys are two blockers (finding_open, finding_unrefuted), so a review that
# keeps disagreeing about one finding never stalls on a ledger the current harness writes.
# Exit 1 while the keyed iterations do not stall; 0 when they stall as a REVIEW_DISAGREEMENT.
python - <<'PY'
import sys
from harness.core import converge
from harness.core.blockers import Blocker, evaluated_fields
def it(kind, text):
    b = Blocker("major_findings", kind, ("F-0001",), text)
    return [{"type": "gate.evaluated", "data": {"verdict": "BLOCKED", **evaluated_fields([b])}},
            {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}}]
events = it("finding_open", "Major finding F-0001 is open") * 2 + it(
    "finding_unrefuted", "Major finding F-0001 is open (rejected, but its reproducer has not passed on this code)")
stall = converge.stalled(events, None, 2)
print(f"stall: {stall}")
sys.exit(0 if stall and stall[0] == "REVIEW_DISAGREEMENT" else 1)
PY
