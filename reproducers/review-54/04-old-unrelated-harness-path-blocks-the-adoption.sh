#!/usr/bin/env bash
# Legitimate flow refused: a repository whose history once had an unrelated `.harness` FILE (another tool's,
# deleted long ago). A human runs `harness init`, configures custom.smoke, the agent starts its task before the
# adoption is committed (base: no config.yaml), the human commits the adoption. first_holding() returns the
# ancient commit that added the `.harness` file (no config.yaml): every cited type counts as introduced.
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403
def variant(base, label, old_file):
    repo = base / label; repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); (repo / "app.py").write_text("x = 1\n")
    if old_file:
        (repo / ".harness").write_text("old tool settings\n"); commit_all(repo, "years ago: another tool's .harness")
        (repo / ".harness").unlink(); commit_all(repo, "drop it")
    commit_all(repo, "before") if not old_file else None
    h(repo, "init"); cfg = repo / ".harness/config.yaml"
    cfg.write_text(cfg.read_text().replace("evidence: {}\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n'))
    to_verifying(repo)
    commit_all(repo, "human: adopt the harness with custom.smoke")
    h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    blocked = "not the one config.yaml configured" in hr(repo, "gate").stdout
    print(f"{label}: custom.smoke as adopted {'BLOCKED' if blocked else 'accepted'}")
    return blocked
def body(base):
    if variant(base, "control", old_file=False):
        raise Setup("control: blocked without the old file")
    return 1 if variant(base, "old-harness-file", old_file=True) else 0
run(body)
PYEOF
