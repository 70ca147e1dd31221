#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: a base that IS a commit here but whose config.yaml cannot be read -- a partial clone
# (--filter=blob:none, the tip's blobs only) -- is neither read nor refused as base_unread: TreeSource.read raises
# pygit2's NotFoundError out of introduced_types, and `harness stamp` dies with a traceback (no note written).
# Exit 1 while the stamp crashes; 0 once it writes a note (refusing the cited type, or reading the base).
def body(base):
    repo, tid, tip = setup(base)
    git(repo, "config", "uploadpack.allowFilter", "true")
    clone = base / "blobless"
    p = subprocess.run(["git", "clone", "-q", "--filter=blob:none", f"file://{repo}", str(clone)], capture_output=True, text=True, env=ENV)
    if p.returncode: raise Setup(p.stderr)
    r = hr(clone, "stamp", "HEAD")
    out = r.stdout + r.stderr
    print("harness stamp HEAD in a blobless clone: exit", r.returncode, "|", out.strip().splitlines()[-1] if out.strip() else "")
    if "Traceback" in out: return 1
    note = subprocess.run(["git", "notes", "--ref", "refs/notes/harness", "show", tip], cwd=clone, capture_output=True, text=True)
    return 0 if note.returncode == 0 else 1
run(body)
PYEOF
