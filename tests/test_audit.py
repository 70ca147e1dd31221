"""`harness audit`: the push-guard checks over a commit range (for CI), and `--rerun`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from support.cli import walk_to
from support.flows import done_with_configured_evidence, gated_done, hand_done_no_verify
from support.gitrepo import commit_all_ok, git, head
from support.records import FAIL_CMD, PASS_CMD

PY = sys.executable
def audit(h, *args: str):
    return h("audit", *args)


def audit_json(h, *args: str) -> tuple[int, dict]:
    r = h("audit", "--json", *args)
    return r.code, json.loads(r.out)


def status(repo: Path) -> str:
    return git(repo, "status", "--porcelain", "--untracked-files=all").stdout


def worktrees(repo: Path) -> list[str]:
    return [line for line in git(repo, "worktree", "list", "--porcelain").stdout.splitlines()
            if line.startswith("worktree ")]


# -- ranges -----------------------------------------------------------------------------

def test_audit_passes_a_clean_range_and_fails_one_holding_a_no_verify_commit(h, repo):
    commit_all_ok(repo, "harness init")
    base = head(repo)
    gated_done(h)
    commit_all_ok(repo, "done")
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    clean_tip = commit_all_ok(repo, "code")

    r = audit(h, "--from", base, "--to", clean_tip)
    assert r.code == 0, r.text
    code, doc = audit_json(h, "--from", base, "--to", clean_tip)
    assert code == 0 and doc["commits"] == 2 and doc["failed"] == 0
    assert all(row["ok"] for row in doc["results"])
    assert any(v == "PASS" for row in doc["results"] for v in row["gated"].values())

    tid, bad = hand_done_no_verify(repo, h)
    (repo / "app.py").write_text("def answer():\n    return 2\n")
    commit_all_ok(repo, "clean commit after the bad one")

    r = audit(h, "--from", base, "--to", "HEAD")
    assert r.code == 1, r.text
    assert bad[:12] in r.text and f".harness/tasks/{tid}/task.yaml" in r.text
    code, doc = audit_json(h, "--from", base, "--to", "HEAD")
    assert code == 1 and doc["commits"] == 4 and doc["failed"] == 1
    (row,) = [row for row in doc["results"] if not row["ok"]]
    assert row["commit"] == bad
    assert {p["rule"] for p in row["problems"]} == {"projection-matches-ledger"}

    # A range that starts after the bad commit is clean again.
    r = audit(h, "--from", bad, "--to", "HEAD")
    assert r.code == 0, r.text


def test_audit_with_all_zeros_or_no_from_checks_from_the_root(h, repo):
    commit_all_ok(repo, "harness init")
    tid, bad = hand_done_no_verify(repo, h)
    r = audit(h, "--from", "0" * 40, "--to", "HEAD")  # CI's "before" of a new branch: all zeros
    assert r.code == 1 and bad[:12] in r.text, r.text
    r = audit(h, "--to", "HEAD")  # no --from: from the root
    assert r.code == 1 and bad[:12] in r.text, r.text


def test_audit_from_the_root_passes_history_from_before_harness_init(h, repo):
    """`repo`'s first commit predates `harness init`: it holds no .harness/ and nothing to judge."""
    commit_all_ok(repo, "harness init")
    gated_done(h)
    commit_all_ok(repo, "done")
    r = audit(h, "--to", "HEAD")
    assert r.code == 0, r.text


def test_audit_stale_done_fails_naming_the_commit(h, repo):
    commit_all_ok(repo, "harness init")
    base = head(repo)
    gated_done(h)
    (repo / "app.py").write_text("def answer():\n    return 'untested'\n")
    stale = commit_all_ok(repo, "done, with code the gate never saw")
    code, doc = audit_json(h, "--from", base, "--to", "HEAD")
    assert code == 1 and doc["failed"] == 1
    assert doc["results"][0]["commit"] == stale
    assert "done-needs-gate-pass" in {p["rule"] for p in doc["results"][0]["problems"]}


# -- --rerun ----------------------------------------------------------------------------

def test_rerun_catches_a_consistently_forged_exit_code(h, repo):
    base, tid, done = done_with_configured_evidence(h, repo, FAIL_CMD, forge=True)
    (repo / "scratch.txt").write_text("the user's uncommitted work\n")
    before = status(repo)

    r = audit(h, "--from", base, "--to", "HEAD")
    assert r.code == 0, f"the forgery is consistent; only --rerun can see it:\n{r.text}"

    r = audit(h, "--from", base, "--to", "HEAD", "--rerun")
    assert r.code == 1, r.text
    assert f".harness/tasks/{tid}/evidence/unit_test.json" in r.text
    assert "rerun-reproduces" in r.text and done[:12] in r.text
    assert "failed (exit 1) — does not reproduce" in r.text and "recorded unit_test passed (exit 0)" in r.text

    code, doc = audit_json(h, "--from", base, "--to", "HEAD", "--rerun")
    assert code == 1 and doc["failed"] == 1
    assert status(repo) == before, "the audit touched the user's work tree"
    assert len(worktrees(repo)) == 1, git(repo, "worktree", "list").stdout


def test_rerun_passes_honest_evidence_that_reproduces(h, repo):
    base, tid, done = done_with_configured_evidence(h, repo, PASS_CMD, forge=False)
    before = status(repo)
    r = audit(h, "--from", base, "--to", "HEAD", "--rerun")
    assert r.code == 0, r.text
    assert status(repo) == before
    assert len(worktrees(repo)) == 1


def test_rerun_runs_on_the_committed_tree_not_the_work_tree(h, repo):
    """The re-run happens in a temporary worktree at the DONE commit: a broken work tree does not
    make honest committed evidence fail, and is left as it was."""
    check = [PY, "-c", "import app, sys; sys.exit(0 if app.answer() == 42 else 1)"]
    base, tid, done = done_with_configured_evidence(h, repo, check, forge=False)
    (repo / "app.py").write_text("def answer():\n    return 0\n")  # uncommitted breakage
    before = status(repo)
    r = audit(h, "--from", base, "--to", "HEAD", "--rerun")
    assert r.code == 0, r.text
    assert status(repo) == before
    assert (repo / "app.py").read_text() == "def answer():\n    return 0\n"


def test_rerun_refuses_a_done_whose_evidence_has_no_configured_command(h, repo):
    base = commit_all_ok(repo, "harness init")  # config.yaml has no evidence commands
    gated_done(h)
    commit_all_ok(repo, "done")
    r = audit(h, "--from", base, "--to", "HEAD")
    assert r.code == 0, r.text
    r = audit(h, "--from", base, "--to", "HEAD", "--rerun")
    assert r.code == 1 and "no evidence.build.command" in r.text, r.text


def test_a_stamp_of_a_task_still_in_progress_agrees_with_a_passing_commit(h, repo):
    # The stamp records the task's gate as BLOCKED (it decides only in GATING): that is no claim
    # against the commit, so audit reports no disagreement with its PASS.
    base = commit_all_ok(repo, "harness init")
    h.ok("task", "new", "In progress")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    commit_all_ok(repo, "work in progress")
    h.ok("stamp", "HEAD")
    (noted,) = json.loads(git(repo, "notes", "--ref", "refs/notes/harness", "show", "HEAD").stdout)["tasks"].values()
    assert noted["state"] == "IMPLEMENTING" and noted["gate"] != "PASS"
    code, doc = audit_json(h, "--from", base, "--to", "HEAD")
    assert code == 0 and doc["results"][-1]["note"] == {"verdict": "PASS", "agrees": True}, doc
    assert "recomputation decides" not in audit(h, "--from", base, "--to", "HEAD").err


def test_a_stamp_saying_a_done_task_is_blocked_is_reported_beside_the_recomputed_pass(h, repo):
    base = commit_all_ok(repo, "harness init")
    tid = gated_done(h)
    done = commit_all_ok(repo, "done")
    h.ok("stamp", done)
    stamped = json.loads(git(repo, "notes", "--ref", "refs/notes/harness", "show", done).stdout)
    stamped["tasks"][tid]["gate"] = "BLOCKED"

    def forge() -> None:  # each audit stamps the commit anew with its own verdict
        git(repo, "notes", "--ref", "refs/notes/harness", "add", "-f", "-m", json.dumps(stamped), done)

    forge()
    code, doc = audit_json(h, "--from", base, "--to", "HEAD")
    assert code == 0 and doc["results"][-1]["note"] == {"verdict": "BLOCKED", "agrees": False}, doc
    forge()
    assert f"note on {done[:12]} says BLOCKED, recomputed PASS" in audit(h, "--from", base, "--to", "HEAD").err


def test_a_stamp_of_a_commit_without_harness_says_so_in_the_note_and_the_output(h, repo):
    base = git(repo, "rev-parse", "HEAD").stdout.strip()  # the template's first commit: no .harness/ yet
    r = h("stamp", base)
    assert r.code == 0 and "the note records: .harness/gate.yaml: not in this commit (no .harness/ committed yet)" in r.out
    note = json.loads(git(repo, "notes", "--ref", "refs/notes/harness", "show", base).stdout)
    assert note["error"] == ".harness/gate.yaml: not in this commit (no .harness/ committed yet)"
