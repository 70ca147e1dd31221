#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-51"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: with harness.allowedSigners = ~nosuchuser/..., a stamp whose cache holds signer-checked facts dies with a
# RuntimeError traceback (at 7510fd7 the warm stamp succeeded); it should fail as a HarnessError or stamp.
def body(base):
    d = setup(base); repo = d["repo"]
    a = approve(d); cached(repo, a)
    git(repo, "config", "harness.allowedSigners", "~nosuchuser-s17b/allowed_signers")
    p = subprocess.run([PY, "-m", "harness", "stamp", "HEAD"], cwd=repo, capture_output=True, text=True, env=ENV)
    crashed = "Traceback" in p.stderr or "RuntimeError" in p.stderr
    print("harness stamp HEAD exit", p.returncode, "| traceback:", crashed)
    print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.stdout.strip()[:200])
    return 1 if crashed else 0
run(body)
PYEOF
