#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: F-0095's staleness outside a shallow clone. In a complete clone that lacks the task's base (the tip's
# history was rewritten), the stamp keeps facts saying base_unread; after the base is fetched, the kept facts keep
# saying so (no key changes), while a fresh stamp reads the base. Exit 1 while the cached stamp differs from fresh.
def smoke(note, tid): return [b for b in (note["tasks"][tid].get("blockers") or []) if "smoke" in b]
def body(base):
    repo, tid, tip0 = setup(base)
    tb = base_of(repo, tid)
    git(repo, "branch", "-q", "keep", tip0)
    git(repo, "checkout", "-q", "--orphan", "squashed"); git(repo, "commit", "-qm", "squashed", "--no-verify")
    tip = git(repo, "rev-parse", "HEAD")
    ci = base / "ci"; git(base, "clone", "-q", "--single-branch", "-b", "squashed", f"file://{repo}", str(ci))
    has = lambda: subprocess.run(["git", "cat-file", "-e", tb + "^{commit}"], cwd=ci, capture_output=True).returncode == 0
    if git(ci, "rev-parse", "--is-shallow-repository") != "false" or has(): raise Setup("clone not as intended")
    def cached():
        stamping.stamp(Git(ci), tip, signers(ci))
        return json.loads(git(ci, "notes", "--ref", "refs/notes/harness", "show", tip))
    before = smoke(cached(), tid)
    if not any("is not in this repository" in b or "is not in this clone" in b for b in before): raise Setup(f"no base_unread before the fetch: {before}")
    git(ci, "fetch", "-q", f"file://{repo}", "keep")
    if not has(): raise Setup("the base was not fetched")
    got, want = smoke(cached(), tid), smoke(fresh(ci, tip), tid)
    print("cached stamp after the base arrived:", got); print("fresh stamp:", want)
    return 0 if got == want else 1
run(body)
PYEOF
