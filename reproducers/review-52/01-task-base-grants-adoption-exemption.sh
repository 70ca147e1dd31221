#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-52"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: the "adopts the harness" exemption of the changed-command check (introduced_types) is decided by the
# task's recorded base alone, which is HEAD when `harness task new` ran. An agent that runs `task new` on an orphan
# (unborn) HEAD gets base_commit null; one that runs it after `git reset --soft` to a commit from before the
# harness was adopted gets that commit. Either way a custom command the change ADDS (`true`; adding a type needs no
# approval at commit level) verifies a must requirement: gate PASS, commit checks (push guard / audit) clean.
from harness.history.incoming import check_commit
def variant(base, how):
    repo = base / how; repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); (repo / "app.py").write_text("x = 1\n"); pre = commit_all(repo, "before")
    h(repo, "init"); adopt = commit_all(repo, "adopt the harness")
    if how == "orphan":
        git(repo, "checkout", "-q", "--orphan", "scratch"); tid = to_verifying(repo); git(repo, "checkout", "-q", "main")
    else:
        git(repo, "reset", "-q", "--soft", pre); tid = to_verifying(repo); git(repo, "reset", "-q", "--soft", adopt)
    if git(repo, "rev-parse", "HEAD") != adopt: raise Setup("HEAD not back on main")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n'))
    h(repo, "evidence", "build", "--", PY, "-c", "pass"); h(repo, "evidence", "unit_test", "--", PY, "-c", "pass")
    h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    for s in ("REVIEWING", "GATING"): h(repo, "transition", s)
    g = hr(repo, "gate", "--advance")
    if g.returncode != 0:
        print(f"{how}: base {base_of(repo, tid)}: gate refuses"); return False
    h(repo, "transition", "DONE"); c = commit_all(repo, "done")
    rep = check_commit(Git(repo), c, signers(repo))
    print(f"{how}: base {base_of(repo, tid)}: gate PASS with custom.smoke = true; commit check problems: "
          f"{[p.rule for p in rep.problems]}; recomputed: {[v.gate.verdict for v in rep.gated() if v.gate]}")
    return not rep.problems
def body(base):
    # control: a task created on main's HEAD is refused for the added command
    ctrl = base / "ctrl"; ctrl.mkdir(); git(ctrl, "init", "-q", "-b", "main"); (ctrl / "a").write_text("1"); commit_all(ctrl, "a")
    h(ctrl, "init"); commit_all(ctrl, "adopt"); to_verifying(ctrl)
    cfg = ctrl / ".harness/config.yaml"; cfg.write_text(cfg.read_text().replace("evidence: {}\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n'))
    h(ctrl, "evidence", "custom.smoke"); h(ctrl, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    if "whose command is not the one config.yaml configured" not in hr(ctrl, "gate").stdout:
        raise Setup("control: the added command is not refused for a task based on HEAD")
    bad = [variant(base, how) for how in ("orphan", "pre-adoption")]
    return 1 if any(bad) else 0
run(body)
PYEOF
