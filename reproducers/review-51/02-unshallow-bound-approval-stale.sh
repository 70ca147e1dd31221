#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-51"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: a bound approval judged in a shallow clone ("cannot tell the repository") stays unapproved in the cache after `git fetch --unshallow`.
def body(base):
    d = setup(base); repo, tid = d["repo"], d["tid"]
    a = approve(d, bind=True)  # as `harness approve` signs now: bound to the repository (its root commit)
    clone = base / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{repo}", str(clone)], check=True, capture_output=True)
    git(clone, "config", "harness.allowedSigners", str(d["sfile"]))
    if git(clone, "rev-parse", "--is-shallow-repository") != "true" or not intro(cached(clone, a), tid):
        raise Setup("the shallow clone did not leave the approval unbound")
    git(clone, "fetch", "-q", "--unshallow")  # what the refusal's own hint says to do
    got, want = cached(clone, a), fresh(clone, a)
    if intro(want, tid):
        raise Setup("a fresh stamp does not count the approval after unshallowing")
    print("cached stamp == fresh:", got == want, "| cached blocks on the changed command:", intro(got, tid), "| fresh:", intro(want, tid))
    return 0 if got == want else 1
run(body)
PYEOF
