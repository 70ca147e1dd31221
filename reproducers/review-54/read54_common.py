"""Shared by /tmp/review-s17e reproducers: read 53's setup, and finish() printing why a check refused."""
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-53"))
from common import *  # noqa: F403  (read 53's: reproducers/review-53/common.py)
import common as _c
def finish(repo, remote, base, old_tip, label):
    h(repo, "evidence", "build"); h(repo, "evidence", "unit_test"); h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    g = hr(repo, "gate", "--advance")
    if g.returncode != 0:
        print(f"{label}: gate BLOCKED:", [l.strip()[:150] for l in g.stdout.splitlines() if "custom.smoke" in l][:1])
        return False, False, False
    h(repo, "transition", "DONE"); c = commit_all(repo, "done")
    p = subprocess.run([PY, "-m", "harness", "hook", "run", "pre-push", "origin", str(remote)], cwd=repo,
                       input=f"refs/heads/main {c} refs/heads/main {old_tip}\n", capture_output=True, text=True, env=ENV)
    git(repo, "push", "-q", "--no-verify", "-f", "origin", "main")
    ci = base / f"{label}-ci"; git(base, "clone", "-q", str(remote), str(ci))
    a = subprocess.run([PY, "-m", "harness", "audit", "--before", old_tip, "--to", c, "--ref", "refs/heads/main", "--rerun"],
                       cwd=ci, capture_output=True, text=True, env=ENV)
    pw = [l.strip()[:220] for l in p.stdout.splitlines() + p.stderr.splitlines() if "[" in l][:3]
    aw = [l.strip()[:220] for l in a.stdout.splitlines() + a.stderr.splitlines() if "refused" in l or "[" in l][:3]
    print(f"{label}: gate PASS with custom.smoke = `true` on a must requirement; pre-push exit {p.returncode} {pw}; "
          f"CI audit --rerun exit {a.returncode} {aw}")
    return True, p.returncode == 0, a.returncode == 0
