#!/usr/bin/env bash
# F-0098 bypass: first_holding() runs `git rev-list -- .harness/config.yaml` with default history
# simplification. A merge of the adopted line with a pre-adoption commit (here `pre`), whose tree lacks config.yaml
# as that parent does, is TREESAME to it: rev-list follows that parent only and never lists the adoption. The next
# commit re-adds config.yaml with the agent's command; first_holding() returns it, so the command counts as adopted.
# (Needs an adopted config.yaml naming no command, as `harness init` writes it: dropping one is otherwise refused.)
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-53"))
from common import *  # noqa: F403 (the shared setup)
def variant(base, how, attack=True):
    repo, remote, pre, adopt = adopt_repo(base, how + ("" if attack else "-control"))
    if how == "orphan":
        git(repo, "checkout", "-q", "--orphan", "scratch"); tid = to_verifying(repo); git(repo, "checkout", "-q", "main")
    else:
        git(repo, "reset", "-q", "--soft", pre); tid = to_verifying(repo); git(repo, "reset", "-q", "--soft", adopt)
    cfg = repo / ".harness/config.yaml"; text = with_smoke(cfg.read_text())
    if attack:
        cfg.unlink(); git(repo, "add", "-A")
        m = git(repo, "commit-tree", git(repo, "write-tree"), "-p", adopt, "-p", pre, "-m", "merge: tidy config")
        cfg.write_text(text); git(repo, "add", "-A")
        k = git(repo, "commit-tree", git(repo, "write-tree"), "-p", m, "-m", "config: smoke command")
        git(repo, "reset", "-q", "--soft", k)
        print(f"{how}: base {base_of(repo, tid)}; the agent's merge {m[:12]} and commit {k[:12]} after the adoption {adopt[:12]}")
    else:
        cfg.write_text(text)
    return finish(repo, remote, base, adopt, how + ("" if attack else "-control"))
def body(base):
    if any(variant(base, "pre-adoption", attack=False)):
        raise Setup("control: the added command passes without the merge")
    res = [variant(base, how) for how in ("pre-adoption", "orphan")]
    return 1 if any(any(r) for r in res) else 0
run(body)
PYEOF
