#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
# Read 60, of F-0136's fix (harness/gitio/adoption.py published_line): the published line now takes
# `git for-each-ref --format=%(upstream) refs/heads`, which prints a branch's CONFIGURED upstream whether or not
# that remote-tracking ref exists. A branch whose upstream is gone (its remote branch deleted after a merge and
# `git fetch --prune`: `[gone]` in `git branch -vv`, an everyday state of a developer's clone) puts a ref that
# does not exist into first_holding's rev-list. For an unborn HEAD (`git checkout --orphan x`, read 56a's F-0119)
# both rev-lists then fail, first_holding returns None ("no history yet: the adoption is the change being
# judged"), and every command of the working tree counts as adopted: read 56a/01's `unborn` variant passes the
# gate again. Before the change only refs that exist were listed (for-each-ref patterns, rev-parse --verify).
# Control: the same unborn variant without the gone upstream is BLOCKED.
# exit 1 = defect present (the gate PASSes), 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403  (read 53's adopt_repo/with_smoke, read 52's helpers)
from harness import resources
TYPES = ["build", "unit_test", "custom.smoke"]
def variant(base, label):
    repo, remote, pre, adopt = adopt_repo(base, label)
    smoke = with_smoke((repo / ".harness/config.yaml").read_text())
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "main")
    if label == "gone-upstream":
        # a feature branch pushed with -u, merged and deleted on the remote, then `git fetch --prune`
        git(repo, "checkout", "-q", "-b", "feature"); (repo / "f.txt").write_text("f\n"); commit_all(repo, "feature")
        git(repo, "push", "-q", "--no-verify", "-u", "origin", "feature"); git(repo, "checkout", "-q", "main")
        git(repo, "push", "-q", "--no-verify", "origin", "--delete", "feature"); git(repo, "fetch", "-q", "--prune")
        print(f"{label}: git branch -vv:", [l.strip()[:70] for l in git(repo, "branch", "-vv").splitlines()])
    gate_yaml = resources.default_gate(TYPES)
    git(repo, "reset", "-q", "--soft", pre); to_verifying(repo); git(repo, "reset", "-q", "--soft", adopt)
    (repo / ".harness/config.yaml").write_text(smoke); (repo / ".harness/gate.yaml").write_bytes(gate_yaml)
    git(repo, "checkout", "-q", "--orphan", "fresh")
    h(repo, "evidence", "build"); h(repo, "evidence", "unit_test"); h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    g = hr(repo, "gate", "--advance")
    if g.returncode != 0:
        why = [l.strip()[:150] for l in g.stdout.splitlines() if "custom.smoke" in l or "adopt" in l][:2]
        print(f"{label}: unborn HEAD, gate exit {g.returncode} (BLOCKED) {why}")
        return False
    print(f"{label}: unborn HEAD, gate PASS with custom.smoke = `true` (added after the adoption) on a must requirement")
    return True
def body(base):
    if variant(base, "control"):
        raise Setup("control: the added command passes with no gone upstream")
    return 1 if variant(base, "gone-upstream") else 0
run(body)
PYEOF
