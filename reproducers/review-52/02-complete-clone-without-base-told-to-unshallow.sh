#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: in a COMPLETE clone (not shallow) that lacks the task's base commit -- the base was a local commit later
# squashed away before the push -- every must requirement citing a custom type is refused with "(a shallow
# checkout?) ... `git fetch --unshallow`", a command git refuses there; no approval lifts it, while the author's own
# push guard (base still in its reflog) accepted the same commit. Exit 1 while the complete clone's refusal points
# at --unshallow / a shallow checkout.
from harness.history.incoming import check_commit
def body(base):
    remote = base / "remote.git"; git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    repo = base / "r"; git(base, "clone", "-q", str(remote), str(repo))
    (repo / "app.py").write_text("x = 1\n"); commit_all(repo, "initial")
    h(repo, "init"); cfg = repo / ".harness/config.yaml"
    cfg.write_text(cfg.read_text().replace("evidence: {}\n", f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'))
    commit_all(repo, "adopt, a smoke command"); git(repo, "push", "-q", "origin", "main")
    (repo / "app.py").write_text("x = 2\n"); commit_all(repo, "work in progress (local)")
    tid = to_verifying(repo)
    (repo / "app.py").write_text("x = 3\n")
    h(repo, "evidence", "build", "--", PY, "-c", "pass"); h(repo, "evidence", "unit_test", "--", PY, "-c", "pass")
    h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    h(repo, "gate", "--advance"); h(repo, "transition", "DONE"); commit_all(repo, "done")
    git(repo, "reset", "-q", "--soft", "HEAD~2"); s = commit_all(repo, "the change, squashed")
    if check_commit(Git(repo), s, signers(repo)).problems: raise Setup("the author's own check refuses")
    git(repo, "push", "-q", "origin", "main")
    ci = base / "ci"; git(base, "clone", "-q", str(remote), str(ci))
    if git(ci, "rev-parse", "--is-shallow-repository") != "false": raise Setup("the CI clone is shallow")
    texts = [f"{p.message} {p.fix}" for p in check_commit(Git(ci), s, signers(ci)).problems]
    print("complete clone's problems:", texts)
    u = subprocess.run(["git", "fetch", "--unshallow"], cwd=ci, capture_output=True, text=True, env=ENV)
    print("git fetch --unshallow there:", u.returncode, u.stderr.strip())
    return 1 if any("unshallow" in t or "shallow checkout" in t for t in texts) else 0
run(body)
PYEOF
