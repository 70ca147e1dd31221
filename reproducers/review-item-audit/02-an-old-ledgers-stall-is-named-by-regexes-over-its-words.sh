#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by an audit of #27 item 1 (old ledgers' text is classified once, at read). converge.stalled()
# drops the classified blockers of an iteration recorded without keys and decides the stall with
# regexes over its sentences (`\bfinding\b` -> REVIEW_DISAGREEMENT). Three iterations blocked by the
# failing evidence type `custom.finding` stall as a review disagreement; the same blockers recorded with
# keys stall as an ARCHITECTURE_DEFECT (an evidence failure).
# Exit 1 while the old ledger's stall is named by its words; 0 when it is named by its classified check.
python - <<'PY'
import sys
from harness.core import converge
events = []
for _ in range(3):
    events += [{"type": "gate.evaluated", "data": {"blockers": ["custom.finding evidence failed: exit 1"]}},
               {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}}]
stall = converge.stalled(events, None, 2)
print(f"stall: {stall}")
sys.exit(0 if stall and stall[0] == "ARCHITECTURE_DEFECT" else 1)
PY
