#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect (pre-existing, met on the brief's worktree route): in a linked worktree (`.git` file) of a depth-1 clone,
# libgit2 does not see the common dir's `shallow` file, so Git.parents() names the boundary commit's absent parent
# and stamp_for's `commit_tree(parents[0])` raises NotFoundError: `harness stamp HEAD` dies with a traceback where
# the main worktree writes a note carrying the base_unread refusal. Exit 1 while the worktree's stamp crashes.
def body(base):
    repo, tid, tip = setup(base)
    clone = base / "clone"; wt = base / "wt"
    git(base, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    git(clone, "worktree", "add", "-q", "--detach", str(wt), "HEAD")
    main = hr(clone, "stamp", "HEAD")
    if main.returncode != 0 or "Traceback" in main.stdout + main.stderr: raise Setup(f"main worktree: {main.stderr}")
    r = hr(wt, "stamp", "HEAD"); out = r.stdout + r.stderr
    print("linked worktree: exit", r.returncode, "|", out.strip().splitlines()[-1] if out.strip() else "")
    return 1 if "Traceback" in out or r.returncode not in (0,) else 0
run(body)
PYEOF
