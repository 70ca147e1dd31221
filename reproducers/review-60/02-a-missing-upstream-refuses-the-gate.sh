#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
# Read 60, of F-0136's fix (harness/gitio/adoption.py published_line): `for-each-ref --format=%(upstream)
# refs/heads` names each local branch's CONFIGURED upstream whether or not that remote-tracking ref exists, and
# first_holding hands it to `git rev-list`, which fails ("bad revision"); FsSource.adoption then refuses: "cannot
# read the history of HEAD for where the harness was adopted ... a partial or damaged clone?". Two everyday states
# have such an upstream:
#   empty-clone: a project begun by cloning an empty repository (a new GitHub repo, `git clone`): git sets
#                branch.main.merge, but origin/main exists only after the first push;
#   gone:        a merged feature branch deleted on the remote, then `git fetch --prune` (`[origin/feature: gone]`).
# The adopting task (its base predates .harness/, so the gate reads the adoption), whose must requirement cites
# custom.smoke configured in the adoption commit, is refused on main: INVALID_HARNESS_STATE. At 1b4ef42 (upstream
# read with `rev-parse --verify`, refs listed by for-each-ref patterns: only refs that exist) both passed.
# Control: the same repository with origin/main and origin/feature present passes.
# exit 1 = defect present (refused), 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403  (read 53's with_smoke, read 52's helpers)
def gate(repo, label):
    g = hr(repo, "gate")
    out = (g.stdout + g.stderr).splitlines()
    why = [l.strip()[:150] for l in out if "history" in l or "GATE" in l][:2]
    print(f"{label}: gate exit {g.returncode} {why}")
    return g.returncode == 0
def adopting_task(base, name):
    """A clone of an empty repository, adopted on main with its first task gated; nothing pushed yet."""
    remote = base / f"{name}.git"; git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    git(base, "clone", "-q", str(remote), name); repo = base / name
    (repo / "app.py").write_text("x = 1\n"); commit_all(repo, "before")
    h(repo, "init"); h(repo, "install")
    cfg = repo / ".harness/config.yaml"; cfg.write_text(with_smoke(cfg.read_text()))
    to_verifying(repo); commit_all(repo, "adopt the harness (and its first task)")
    h(repo, "evidence", "build"); h(repo, "evidence", "unit_test"); h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    return repo
def body(base):
    bad = 0
    repo = adopting_task(base, "empty-clone")
    print("empty-clone: git branch -vv:", [l.strip()[:60] for l in git(repo, "branch", "-vv").splitlines()])
    bad += not gate(repo, "empty-clone, before the first push")
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    if not gate(repo, "control, once main is pushed"):
        raise Setup("control: the gate does not pass")
    git(repo, "branch", "feature"); git(repo, "push", "-q", "--no-verify", "-u", "origin", "feature")
    if not gate(repo, "control, with origin/feature"):
        raise Setup("control: the gate does not pass with origin/feature")
    git(repo, "push", "-q", "--no-verify", "origin", "--delete", "feature"); git(repo, "fetch", "-q", "--prune")
    print("gone: git branch -vv:", [l.strip()[:60] for l in git(repo, "branch", "-vv").splitlines()])
    bad += not gate(repo, "gone, after the merged feature branch is deleted on the remote")
    return 1 if bad else 0
run(body)
PYEOF
