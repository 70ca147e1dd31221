#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-51"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: facts computed in a shallow clone that lacks the task's base commit (no approval consulted: trust "-")
# are served after `git fetch --unshallow`, by the full stamp and by the hook's quick path: the changed-command blocker is missing.
def body(base):
    d = setup(base); repo, tid = d["repo"], d["tid"]
    (repo / "app.py").write_text("x = 2\n"); c1 = commit_all(repo, "code")
    clone = base / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{repo}", str(clone)], check=True, capture_output=True)
    git(clone, "config", "harness.allowedSigners", str(d["sfile"]))
    if intro(cached(clone, c1), tid):
        raise Setup("the shallow clone's stamp already blocks on the changed command")
    git(clone, "fetch", "-q", "--unshallow")
    (clone / "app.py").write_text("x = 3\n"); c2 = commit_all(clone, "code only, after unshallowing")
    os.chdir(clone)
    quick = stamping.quick_stamp_head()  # the post-commit hook's first try
    got = note(clone, c2) if quick else cached(clone, c2)
    want = fresh(clone, c2)
    if not intro(want, tid):
        raise Setup("a fresh stamp does not block on the unapproved changed command")
    print("quick path stamped:", quick, "| cached stamp == fresh:", got == want,
          "| cached blocks on the changed command:", intro(got, tid), "| fresh:", intro(want, tid))
    return 0 if got == want else 1
run(body)
PYEOF
