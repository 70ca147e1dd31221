"""What read 53's reproducers share: a repository adopted with the harness, pushed to a bare remote,
and finish(): the gate, the pre-push guard and CI's `harness audit --rerun` asked of the agent's DONE."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403  (scratch repos driven through the CLI; exit 2 on a setup failure)

SMOKE = 'evidence:\n  custom.smoke:\n    command: ["true"]\n'
CONFIGURED = f'  build:\n    command: ["{PY}", "-c", "pass"]\n  unit_test:\n    command: ["{PY}", "-c", "pass"]\n'
def adopt_repo(base, name, configured=False):
    remote = base / f"{name}.git"; git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    repo = base / name; repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); (repo / "app.py").write_text("x = 1\n"); pre = commit_all(repo, "before")
    h(repo, "init")
    cfg = repo / ".harness/config.yaml"
    if configured:
        cfg.write_text(cfg.read_text().replace("evidence: {}\n", "evidence:\n" + CONFIGURED))
    adopt = commit_all(repo, "adopt the harness")
    git(repo, "remote", "add", "origin", str(remote)); git(repo, "push", "-q", "--no-verify", "origin", "main")
    return repo, remote, pre, adopt
def with_smoke(text):
    """config.yaml text with custom.smoke = `true` added (and build/unit_test configured, for CI's re-run)."""
    return re.sub(r"evidence:.*?\n\n", SMOKE + CONFIGURED + "\n", text, count=1, flags=re.S)
def finish(repo, remote, base, old_tip, label):
    """Cite custom.smoke for the must requirement, gate, commit; then the push guard and CI's audit --rerun.
    Returns (gate passed, pre-push passed, CI audit passed)."""
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
