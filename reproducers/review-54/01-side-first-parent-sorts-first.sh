#!/usr/bin/env bash
# F-0104..F-0106 fix bypass: first_holding() takes the FIRST line of
# `git rev-list --full-history --topo-order --reverse REV -- .harness`. --topo-order only orders parents before
# children; between two lines of a merge, the reversed graph order puts the merge's FIRST parent's line first.
# The agent branches from a pre-adoption commit, "adopts" on that side (R1: config.yaml with custom.smoke = true),
# deletes .harness/ (R2, so the merge's one-adoption rule sees only one side carrying .harness/ and no new root
# means no one-repository refusal), and merges main with R2 as the FIRST parent. R1 now precedes the real
# adoption in the listing: the agent's command counts as "adopted". exit 1 = present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403
from harness.gitio.adoption import first_holding
def variant(base, label, attack):
    repo, remote, pre, adopt = adopt_repo(base, label)
    text = with_smoke((repo / ".harness/config.yaml").read_text())
    if attack:
        git(repo, "checkout", "-q", "-b", "side", pre)
        git(repo, "checkout", adopt, "--", ".harness"); (repo / ".harness/config.yaml").write_text(text)
        from harness import resources
        (repo / ".harness/gate.yaml").write_bytes(resources.default_gate(["build", "unit_test", "custom.smoke"]))
        r1 = commit_all(repo, "side: adopt with a smoke command")
        git(repo, "rm", "-r", "-q", ".harness"); r2 = commit_all(repo, "side: drop it again")
        m = git(repo, "commit-tree", git(repo, "rev-parse", f"{adopt}^{{tree}}"), "-p", r2, "-p", adopt, "-m", "merge main")
        git(repo, "checkout", "-q", "-f", "main"); git(repo, "reset", "-q", "--hard", m)
        try:
            found = first_holding(repo, "HEAD")[:12]
        except Exception as exc:  # the fix refuses to name one
            found = f"refused: {exc}"
        print(f"{label}: adoption {adopt[:12]}, side R1 {r1[:12]}; first_holding(HEAD) = {found}")
    tip = git(repo, "rev-parse", "HEAD")
    git(repo, "reset", "-q", "--soft", pre); tid = to_verifying(repo); git(repo, "reset", "-q", "--soft", tip)
    (repo / ".harness/config.yaml").write_text(text)
    return finish(repo, remote, base, adopt, label)
def body(base):
    if any(variant(base, "control", attack=False)):
        raise Setup("control: the added command passes without the merge")
    return 1 if any(variant(base, "first-parent-side", attack=True)) else 0
run(body)
PYEOF
