#!/usr/bin/env bash
# With no config.yaml at the base, the fix compares the cited commands with the ADOPTION's config.yaml, not with
# the config.yaml the history holds when the task starts. A command the adopter configured and a human later
# REMOVED (signed `approve config-change`: it proved nothing) is, re-added, "a command for a new type" to the commit
# rules (no approval) and "as adopted" to the gate: a task whose base is a pre-adoption commit (`git reset --soft`,
# the trick the fix is about) verifies a must requirement with it. A task based on HEAD is refused (control).
# exit 1 = defect present, 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54")); sys.path.insert(0, os.path.join(os.environ["here"], "tests"))
from read54_common import *  # noqa: F403
from harness import resources
from support.ssh_keys import approval_line, make_key, repository_id, signers_line
TYPES = ["build", "unit_test", "custom.smoke"]
def variant(base, label, pre_base):
    remote = base / f"{label}.git"; git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    repo = base / label; repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); (repo / "app.py").write_text("x = 1\n"); pre = commit_all(repo, "before")
    h(repo, "init")
    key, public = make_key(base / f"{label}-keys", "human")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    cfg = repo / ".harness/config.yaml"; adopted = with_smoke(cfg.read_text()); cfg.write_text(adopted)
    (repo / ".harness/gate.yaml").write_bytes(resources.default_gate(TYPES))
    adopt = commit_all(repo, "adopt the harness (the human configures custom.smoke = true, a placeholder)")
    before = cfg.read_bytes(); cfg.write_text(adopted.replace(SMOKE.replace("evidence:\n", ""), ""))
    assert b"custom.smoke" not in cfg.read_bytes()
    ap = repo / ".harness/approvals.jsonl"
    ap.write_text((ap.read_text() if ap.exists() else "") +
                  approval_line("config-change", cfg.read_bytes(), key, bind=(repository_id(repo), before)))
    removed = commit_all(repo, "human: drop the placeholder smoke command (signed approve config-change)")
    p = subprocess.run([PY, "-m", "harness", "hook", "run", "pre-push", "origin", str(remote)], cwd=repo,
                       input=f"refs/heads/main {removed} refs/heads/main {'0'*40}\n", capture_output=True, text=True, env=ENV)
    if p.returncode: raise Setup(f"the human's removal is refused: {p.stdout}{p.stderr}")
    git(repo, "remote", "add", "origin", str(remote)); git(repo, "push", "-q", "--no-verify", "origin", "main")
    if pre_base:
        git(repo, "reset", "-q", "--soft", pre); to_verifying(repo); git(repo, "reset", "-q", "--soft", removed)
    else:
        to_verifying(repo)
    cfg.write_text(adopted)  # the agent re-adds the removed command, byte for byte as adopted
    return finish(repo, remote, base, removed, label)
def body(base):
    if any(variant(base, "control-base-HEAD", pre_base=False)):
        raise Setup("control: the re-added command passes with the base at HEAD")
    # Exit 1 while the push guard or CI pass it: the addition is refused there since F-0108's fix; the local gate may
    # still PASS a tree whose addition was committed around the commit hook (--no-verify, which the tool guard denies).
    return 1 if any(variant(base, "pre-adoption-base", pre_base=True)[1:]) else 0
run(body)
PYEOF
