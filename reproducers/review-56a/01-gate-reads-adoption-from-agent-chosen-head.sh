#!/usr/bin/env bash
# F-0109's fix refuses a history in which a side line's own adoption is merged with the real one. The local gate
# still reads "where the harness was adopted" from HEAD's history alone, and HEAD is the agent's to choose at gate
# time, so the agent need not merge at all:
#   side-line: HEAD = R1, a commit on a line begun before the adoption that adds .harness/ with custom.smoke = `true`
#              (the pre-commit hook accepts R1: no parent holds .harness/, so it "adopts" and configures its
#              commands itself). first_holding(HEAD) = R1, the agent's own commit: its command counts as adopted.
#   unborn:    `git checkout --orphan x` just before `harness gate`: HEAD has no history, first_holding() = None,
#              "this change adopts the harness", every command counts as adopted (the task's base, a commit of this
#              repository, is ignored).
# The task's base is a pre-adoption commit (`git reset --soft` around `task new`, the trick of F-0098/F-0104).
# Control: the same work tree gated with HEAD on main (which holds the adoption) is BLOCKED.
# Only the local layers are fooled (gate --advance, and the pre-commit hook for the DONE commit); landing the DONE
# on main needs a merge (one-adoption) or a non-fast-forward push, which the server hook and CI refuse.
# exit 1 = defect present (the local gate PASSes in a variant), 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403  (read 53's adopt_repo/with_smoke/finish, read 52's helpers)
from harness import resources
from harness.gitio.adoption import first_holding
TYPES = ["build", "unit_test", "custom.smoke"]
def precommit(repo):
    return subprocess.run([PY, "-m", "harness", "hook", "run", "pre-commit"], cwd=repo, capture_output=True,
                          text=True, env=ENV)
def fh(repo):
    try:
        r = first_holding(repo, "HEAD"); return r[:12] if r else r
    except Exception as exc:
        return f"refused: {str(exc)[:80]}"
def variant(base, label):
    repo, remote, pre, adopt = adopt_repo(base, label)
    smoke = with_smoke((repo / ".harness/config.yaml").read_text())
    gate_yaml = resources.default_gate(TYPES)
    head = adopt
    if label == "side-line":
        git(repo, "checkout", "-q", "-b", "side", pre)
        git(repo, "checkout", adopt, "--", ".harness")
        (repo / ".harness/config.yaml").write_text(smoke); (repo / ".harness/gate.yaml").write_bytes(gate_yaml)
        git(repo, "add", "-A"); pc = precommit(repo)
        head = commit_all(repo, "side: adopt the harness with a smoke command")
        print(f"{label}: R1 {head[:12]} (a line from {pre[:12]}, before the adoption {adopt[:12]}); the pre-commit "
              f"hook on R1: exit {pc.returncode}")
        git(repo, "checkout", "-q", "-f", "main")
    git(repo, "reset", "-q", "--soft", pre); to_verifying(repo); git(repo, "reset", "-q", "--soft", head)
    (repo / ".harness/config.yaml").write_text(smoke); (repo / ".harness/gate.yaml").write_bytes(gate_yaml)
    if label == "unborn":
        git(repo, "checkout", "-q", "--orphan", "fresh")
    print(f"{label}: adoption {adopt[:12]}; first_holding(HEAD) = {fh(repo)}")
    h(repo, "evidence", "build"); h(repo, "evidence", "unit_test"); h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    g = hr(repo, "gate", "--advance")
    if g.returncode != 0:
        why = [l.strip()[:160] for l in g.stdout.splitlines() if "custom.smoke" in l or "adopted" in l][:2]
        print(f"{label}: gate exit {g.returncode} (BLOCKED) {why}")
        return False
    h(repo, "transition", "DONE"); git(repo, "add", "-A"); pc = precommit(repo)
    c = commit_all(repo, "done")
    p = subprocess.run([PY, "-m", "harness", "hook", "run", "pre-push", "origin", str(remote)], cwd=repo,
                       input=f"refs/heads/main {c} refs/heads/main {adopt}\n", capture_output=True, text=True, env=ENV)
    print(f"{label}: gate PASS with custom.smoke = `true` on a must requirement; pre-commit hook on the DONE commit: "
          f"exit {pc.returncode}; pre-push of it over main (not a fast-forward): exit {p.returncode}")
    return True
def body(base):
    if variant(base, "control"):
        raise Setup("control: the added command passes with HEAD on main")
    bad = [variant(base, v) for v in ("side-line", "unborn")]
    return 1 if any(bad) else 0
run(body)
PYEOF
