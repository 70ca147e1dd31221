#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by read 40 (an adversarial read of session 14's change). Before F-0030's fix the gate recorded a
# failing fail_to_pass run with the key kind fail_to_pass_unusable; now it gives kind fail_to_pass_failing.
# Recorded keys are read as they are, so a task gated across the upgrade sees one unchanged blocker as two,
# and a stall is missed (CONTINUE where 1b65d23 said ESCALATE).
# Exit 1 while two keyed iterations from before and the live blocker do not stall; 0 when they do.
python - <<'PY'
import sys
from harness.core.blockers import Blocker
from harness.core.converge import stalled
T = "REQ-001 names test cases, but fail_to_pass evidence is failing: harness evidence fail_to_pass"
def iteration(kind):  # gate.evaluated as the harness wrote it before (keys beside the sentences)
    return [{"type": "gate.evaluated", "data": {"blockers": [T], "blocker_keys": [
                {"check": "requirements_verified", "kind": kind, "subject": ["REQ-001"]}]}},
            {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}}]
live = [Blocker("requirements_verified", "fail_to_pass_failing", ("REQ-001",), T)]  # what the gate gives now
got = stalled(iteration("fail_to_pass_unusable") * 2, live, 2)
print("stalled ->", got)
sys.exit(0 if got is not None else 1)
PY
