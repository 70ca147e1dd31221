#!/usr/bin/env bash
# The introduced_command rule compares with config.yaml at the task's base, and the base is whatever HEAD is at
# `harness task new`. The commit rules let any commit add "a command for a new type" with no approval. So the agent
# commits custom.smoke = true first (no task open), then starts the task on that commit: the command is "configured
# at the base" and verifies a must requirement; no human ever approved it. (Not the fix's code path, but the same
# rule: the fix closes the no-config.yaml bases while a base WITH the agent's own command is taken at its word.)
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403
def body(base):
    repo, remote, pre, adopt = adopt_repo(base, "two-step")
    cfg = repo / ".harness/config.yaml"; cfg.write_text(with_smoke(cfg.read_text()))
    step = commit_all(repo, "config: a smoke command (no task, no approval)")
    p = subprocess.run([PY, "-m", "harness", "hook", "run", "pre-push", "origin", str(remote)], cwd=repo,
                       input=f"refs/heads/main {step} refs/heads/main {adopt}\n", capture_output=True, text=True, env=ENV)
    print(f"commit adding the command alone: pre-push exit {p.returncode}")
    to_verifying(repo)
    # Exit 1 while the push guard or CI pass it: the addition is refused there since the fix; the local gate may
    # still PASS a tree whose addition was committed around the commit hook (--no-verify, which the tool guard denies).
    return 1 if any(finish(repo, remote, base, adopt, "two-step")[1:]) else 0
run(body)
PYEOF
