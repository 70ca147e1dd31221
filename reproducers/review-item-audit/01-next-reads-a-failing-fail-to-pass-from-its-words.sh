#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by an audit of #27 item 1 (blockers are data: Next: dispatches on kind and subject, never on text).
# The gate gives a requirement whose fail_to_pass run FAILS and one whose run is MISSING the same kind,
# `fail_to_pass_unusable`; harness/core/next_step.py tells them apart by looking for "is failing" in the
# sentence. Reword the gate's sentence (what issue #27 says must be safe) and Next: offers re-running a
# failing fail_to_pass as if that cleared it.
# Exit 1 while the reworded failing blocker is offered a re-run; 0 when it is offered none.
python - <<'PY'
import sys
from harness.core.blocker_text import classify
from harness.core.blockers import Blocker
from harness.core.next_step import clearing

b = classify("REQ-001 names test cases, but fail_to_pass evidence is failing: harness evidence fail_to_pass")
reworded = Blocker(b.check, b.kind, b.subject, "REQ-001's run against the base fails")
steps = [s.command for s in clearing(reworded)]
print(f"kind {b.kind}; steps for the reworded sentence: {steps}")
sys.exit(1 if steps else 0)
PY
