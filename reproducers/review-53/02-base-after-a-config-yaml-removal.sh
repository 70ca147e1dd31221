#!/usr/bin/env bash
# F-0098 not covered: a base that lacks config.yaml is taken to predate the adoption, and the adoption is
# searched only AFTER the base. A commit that merely deletes an empty (no-command) config.yaml after the real
# adoption passes the push guard; a task started there (no reset trick: base = HEAD at `task new`) finds as
# "adoption" the agent's own commit that re-adds config.yaml with its command: gate, pre-push and CI all pass.
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-53"))
from common import *  # noqa: F403 (the shared setup)
def body(base):
    repo, remote, pre, adopt = adopt_repo(base, "linear")
    cfg = repo / ".harness/config.yaml"; text = with_smoke(cfg.read_text())
    cfg.unlink(); x = commit_all(repo, "drop the empty config.yaml")
    p = subprocess.run([PY, "-m", "harness", "hook", "run", "pre-push", "origin", str(remote)], cwd=repo,
                       input=f"refs/heads/main {x} refs/heads/main {adopt}\n", capture_output=True, text=True, env=ENV)
    print(f"push of the removal: pre-push exit {p.returncode}")
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    tid = to_verifying(repo); print("task base:", base_of(repo, tid)[:12], "(after the adoption", adopt[:12] + ")")
    cfg.write_text(text)
    return 1 if any(finish(repo, remote, base, x, "linear")) else 0
run(body)
PYEOF
