#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-51"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect (read 51): in a clone that lacks the task's base commit (a shallow CI checkout), the gate cannot read the
# configured commands at the base and takes the change for one that adopts the harness: a must requirement citing
# a command changed since the base, with no approval, is not blocked. A fresh stamp (no cache) is asked.
# Exit 1 while no blocker names the cited command, 0 once one does (the base cannot be read: refused with a reason).
def body(base):
    d = setup(base); repo, tid = d["repo"], d["tid"]
    if not intro(fresh(repo, d["unapproved"]), tid):
        raise Setup("the full clone's fresh stamp does not block on the changed command")
    clone = base / "clone"  # the tip alone, as a CI checkout of depth 1 has it: the evidence is fresh there
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True)
    git(clone, "config", "harness.allowedSigners", str(d["sfile"]))
    blockers = fresh(clone, d["unapproved"])["tasks"][tid].get("blockers") or []
    if any("stale" in b for b in blockers):
        raise Setup(f"the evidence is not fresh in the clone: {blockers}")
    named = [b for b in blockers if "custom.smoke" in b]
    print("blockers naming custom.smoke in the shallow clone:", named)
    return 0 if named else 1
run(body)
PYEOF
