#!/usr/bin/env bash
# Any adopted config: `task new` on a local scratch commit X = the adopted tree minus config.yaml (child of
# HEAD), then `git reset --soft` back. X lacks config.yaml, so first_holding(HEAD, ^X) runs on an empty range
# (HEAD is X's ancestor) and returns None: "the adoption is this change". The local gate and the push guard
# (which also holds X) pass an added command; only CI, lacking X, refuses (base_unread).
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-53"))
from common import *  # noqa: F403 (the shared setup)
def body(base):
    repo, remote, pre, adopt = adopt_repo(base, "scratch", configured=True)
    cfg = repo / ".harness/config.yaml"; text = cfg.read_text()
    cfg.unlink(); git(repo, "add", "-A")
    x = git(repo, "commit-tree", git(repo, "write-tree"), "-p", adopt, "-m", "scratch")
    git(repo, "reset", "-q", "--soft", x); tid = to_verifying(repo); git(repo, "reset", "-q", "--soft", adopt)
    cfg.write_text(with_smoke(text))
    gate, push, ci = finish(repo, remote, base, adopt, "scratch")
    return 1 if (gate or push) else 0
run(body)
PYEOF
