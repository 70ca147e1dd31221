#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: F-0096's sibling. `harness audit --allowed-signers PATH` goes through trust.named_file -> _read ->
# Path.expanduser() unguarded: a PATH of `~nosuchuser/...` (here a real folder of that literal name, which click's
# exists-check accepts) dies with RuntimeError's traceback instead of the HarnessError F-0096 gives for git config.
def body(base):
    repo = base / "r"; repo.mkdir(); git(repo, "init", "-q", "-b", "main")
    (repo / "a").write_text("1"); commit_all(repo, "a"); h(repo, "init"); commit_all(repo, "adopt")
    (repo / "~nosuchuser").mkdir(); (repo / "~nosuchuser" / "signers").write_text("")
    r = hr(repo, "audit", "--allowed-signers", "~nosuchuser/signers")
    out = r.stdout + r.stderr
    print("exit", r.returncode, "|", out.strip().splitlines()[-1])
    return 1 if "Traceback" in out or "RuntimeError" in out else 0
run(body)
PYEOF
