"""The `harness-gate` hook through the real pre-commit framework judges the tree being committed,
writes nothing git tracks and passes on PASS; warnings of passing hooks reach the user."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.gitio.git import Git
from harness.gitio.tree_source import index_tree

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_passing_evidence, gated_done, new_task
from support.gitrepo import commit_all_ok, git, out
from support.records import task_dir

pytestmark = pytest.mark.e2e  # the pre-commit framework's hooks in real commits

PY = sys.executable


def run_gate_hook(repo: Path) -> subprocess.CompletedProcess:
    # No --verbose: the hook's definition makes the framework show its report, PASS included.
    return subprocess.run([PY, "-m", "pre_commit", "run", "--hook-stage", "manual", "harness-gate"],
                          cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)


def tracked_state(repo) -> tuple[str, str]:
    """What git sees: the status and the diff of the working tree and of the index."""
    return (git(repo, "status", "--porcelain", "--untracked-files=all").stdout,
            git(repo, "diff", "HEAD", "--binary").stdout)


def last_verdict(repo) -> dict:
    return json.loads((repo / ".harness/local/gate-hook.json").read_text())


def test_gate_hook_passes_with_everything_staged_and_writes_nothing_tracked(pc):
    tid = gated_done(pc.h)
    git(pc.repo, "add", "-A")
    before = tracked_state(pc.repo)
    ledger = (task_dir(pc.repo, tid) / "events.jsonl").read_bytes()
    p = run_gate_hook(pc.repo)
    assert p.returncode == 0, out(p)
    assert "files were modified by this hook" not in out(p)
    assert "judged on the tree in the index" in out(p) and "QUALITY GATE: PASS" in out(p)
    assert tracked_state(pc.repo) == before
    assert (task_dir(pc.repo, tid) / "events.jsonl").read_bytes() == ledger
    assert last_verdict(pc.repo)["verdict"] == "PASS" and last_verdict(pc.repo)["judged"] == "index"
    assert "local/" not in git(pc.repo, "status", "--porcelain", "--ignored=no").stdout


def test_gate_hook_judges_the_index_not_the_unstaged_changes(pc):
    tid = gated_done(pc.h)
    git(pc.repo, "add", "-A")
    (pc.repo / "app.py").write_text("def answer():\n    return 41  # unstaged, untested\n")
    before = tracked_state(pc.repo)
    p = run_gate_hook(pc.repo)
    # The framework stashed the edit: what is committed is the gated tree, and it passes.
    assert p.returncode == 0, out(p)
    assert "unstaged changes are not part of it" in out(p)
    assert tracked_state(pc.repo) == before  # the edit is back, nothing else changed
    assert "return 41" in (pc.repo / "app.py").read_text()
    g = Git(pc.repo)
    assert last_verdict(pc.repo)["tree"] == g.strip_harness(index_tree(g)) != g.worktree_source_tree()
    assert last_verdict(pc.repo)["task"] == tid


def test_gate_hook_blocks_a_staged_change_the_evidence_never_saw_and_records_nothing(pc):
    tid = gated_done(pc.h)
    (pc.repo / "app.py").write_text("def answer():\n    return 41  # staged, untested\n")
    git(pc.repo, "add", "-A")
    ledger = (task_dir(pc.repo, tid) / "events.jsonl").read_bytes()
    before = tracked_state(pc.repo)
    p = run_gate_hook(pc.repo)
    assert p.returncode == 1, out(p)
    assert "QUALITY GATE: BLOCKED" in out(p) and "stale" in out(p)
    assert "files were modified by this hook" not in out(p)
    assert tracked_state(pc.repo) == before
    assert (task_dir(pc.repo, tid) / "events.jsonl").read_bytes() == ledger


def test_gate_by_hand_still_records_its_verdict_and_the_hook_does_not(pc):
    tid = new_task(pc.h)
    walk_to(pc.h, *TO_VERIFYING)
    collect_passing_evidence(pc.h)
    walk_to(pc.h, "REVIEWING", "GATING")
    git(pc.repo, "add", "-A")
    ledger = task_dir(pc.repo, tid) / "events.jsonl"
    before = ledger.read_bytes()
    assert run_gate_hook(pc.repo).returncode == 0
    assert ledger.read_bytes() == before
    assert pc.h("gate").code == 0
    assert json.loads(ledger.read_text().splitlines()[-1])["type"] == "gate.evaluated"


def test_push_warning_of_the_post_commit_hook_is_shown_in_a_real_commit(pc):
    gated_done(pc.h)
    commit_all_ok(pc.repo, "gated done")
    (pc.repo / "app.py").write_text("def answer():\n    return 41\n")
    git(pc.repo, "add", "-A")
    p = git(pc.repo, "commit", "--amend", "--no-edit", check=False)
    assert p.returncode == 0, out(p)
    assert "WARNING: this commit will be refused at push" in out(p), out(p)
    assert "done-needs-gate-pass" in out(p)


def test_gate_hook_says_so_when_the_current_task_is_not_in_the_index(h, repo, task):
    r = h("hook", "gate")  # nothing staged: the task exists only in the working tree
    assert r.code == 2 and "is not in the index" in r.out and f"git add .harness/tasks/{task}" in r.out, r.text
    assert not (repo / ".harness/tasks" / task / "events.jsonl").read_text().count("gate.evaluated")
