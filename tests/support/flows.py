"""Whole user journeys a test starts from: a task to DONE, a review's findings, a forged DONE."""

from __future__ import annotations

from pathlib import Path

from support.cli import TO_VERIFYING, Harness, walk_to
from support.gitrepo import ci_clone, commit_all_ok, commit_ok, gc_remote, git, head
from support.paths import PY
from support.processes import py
from support.records import PASS_CMD, configure, forge_passing, set_state_by_hand, write_yaml
from support.ssh_keys import make_key, signers_line

# A finding proposal as a reviewer writes one (`harness finding propose --file`), every field filled.
FINDING_PROPOSAL = {
    "type": "suspected_defect", "severity": "major", "category": "correctness",
    "title": "answer() is off by one", "claim": "answer() returns 42 where 41 is required",
    "location": {"file": "app.py", "line": 2}, "failure_scenario": ["call app.answer()"],
    "expected_behavior": "41", "possible_actual_behavior": "42",
    "recommended_reproducer": {"type": "unit_test", "description": "assert", "command": [PY, "-c", "pass"]},
}


def new_task(h: Harness, title: str = "Add resumable execution") -> str:
    tid = h.ok("task", "new", title).out.strip()
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    return tid


def collect_passing_evidence(h: Harness) -> None:
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")


def gate_to_converged(h: Harness) -> None:
    walk_to(h, "REVIEWING", "GATING")
    r = h("gate", "--advance")
    assert r.code == 0 and "PASS" in r.out, r.text


def gated_done(h: Harness, title: str = "Add resumable execution") -> str:
    """A task walked legitimately to DONE (nothing committed). Returns its id."""
    tid = new_task(h, title)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return tid


def hand_done_no_verify(pc_repo: Path, h: Harness, title: str = "Shortcut") -> tuple[str, str]:
    """A task at IMPLEMENTING whose task.yaml says DONE, committed with --no-verify. (tid, sha)."""
    tid = h.ok("task", "new", title).out.strip()
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    set_state_by_hand(pc_repo, tid, "DONE")
    git(pc_repo, "add", "-A")
    return tid, commit_ok(pc_repo, "done (no verify)", "--no-verify")


def finding(title: str, claim: str, code: str, severity: str = "major") -> dict:
    return {
        "type": "suspected_defect", "severity": severity, "category": "correctness", "title": title,
        "claim": claim, "related_requirements": ["REQ-001"], "location": {"file": "app.py", "line": 6},
        "failure_scenario": ["import app", code], "expected_behavior": "as the contract says",
        "recommended_reproducer": {"type": "unit_test", "description": title, "command": [PY, "-c", code]},
    }


def forged_done_force_pushed(h: Harness, repo: Path, remote: Path, where: Path) -> tuple[str, str, str, Path]:
    """Push honest work, then force-push over it a DONE committed with --no-verify, and let the
    remote forget the old tip: the case where a CI fallback to merge-base(main, HEAD) audits nothing.
    Returns (old tip, forged task id, forged commit, a fresh CI clone)."""
    base = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    old_tip = commit_all_ok(repo, "honest work, later thrown away")
    git(repo, "push", "-q", "origin", "main")
    git(repo, "reset", "-q", "--hard", base)
    tid, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--force", "origin", "main")
    gc_remote(remote)
    return old_tip, tid, forged, ci_clone(remote, where)


# Exits 1 while the defect exists (app.answer() returns 42, the finding says it should be 41).
ANSWER_REPRODUCER = [PY, "-c", "import app, sys; print('REPRO-MARKER', app.answer()); sys.exit(0 if app.answer() == 41 else 1)"]


def proposal(**over) -> dict:
    base = {
        "type": "suspected_defect", "severity": "major", "category": "correctness",
        "title": "answer() is off by one",
        "claim": "answer() returns 42 where the requirement says 41",
        "location": {"file": "app.py", "line": 2},
        "failure_scenario": ["import app", "call app.answer()"],
        "expected_behavior": "answer() returns 41",
        "possible_actual_behavior": "answer() returns 42",
        "recommended_reproducer": {"type": "unit_test", "description": "assert the value",
                                   "command": list(ANSWER_REPRODUCER)},
    }
    base.update(over)
    return base


def propose(h, tmp_path: Path, doc, name: str = "findings.yaml"):
    """Write ``doc`` outside the repository and run `harness finding propose --file` on it."""
    return h("finding", "propose", "--file", str(write_yaml(tmp_path / "inbox" / name, doc)))


def collect_all(h: Harness) -> None:
    """Fresh passing build and unit_test evidence."""
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))


def to_gating(h: Harness, verify: bool = True) -> None:
    """A full legal walk: must requirement, VERIFYING, fresh build + unit_test, REVIEWING, GATING."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    collect_all(h)
    if verify:
        h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


def done_with_configured_evidence(h, repo: Path, unit_test: list[str], forge: bool) -> tuple[str, str, str]:
    """Commit config commands, then a task to DONE with evidence from them. (base, tid, done sha)."""
    configure(repo, PASS_CMD, unit_test)
    base = commit_all_ok(repo, "harness init, evidence commands")
    tid = h.ok("task", "new", "Rerun").out.strip()
    h.ok("requirement", "add", "It works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    r = h("evidence", "unit_test")
    if forge:
        assert r.code == 1, r.text
        forge_passing(repo, tid, "unit_test")
        h.ok("replay", "--write")  # re-render task.yaml from the forged ledger
        r = h("replay")
        assert r.code == 0, r.text  # the forgery is consistent: the ledger replays cleanly
    else:
        assert r.code == 0, r.text
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    gate_to_converged(h)
    h.ok("transition", "DONE")
    done = commit_all_ok(repo, "done")
    return base, tid, done


# A custom evidence type configured at a task's base, whose command the task then changes (F-0089, read 51).
CHANGED_SMOKE = f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'


def changed_command(h: Harness, repo: Path, tmp_path: Path) -> dict:
    """A task whose must requirement cites custom.smoke, a command changed since the task's base (committed, not
    approved), with git config naming an allowed-signers file that lists the human's key."""
    keys = {name: make_key(tmp_path / "keys", name) for name in ("human", "other")}
    signers = tmp_path / "allowed_signers"
    signers.write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "config", "harness.allowedSigners", str(signers))
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", CHANGED_SMOKE))
    commit_all_ok(repo, "a smoke command")
    tid = new_task(h)
    walk_to(h, *TO_VERIFYING)
    before = config.read_bytes()
    config.write_text(config.read_text().replace('"pass"]', '"pass  # this change"]'))
    h.ok("evidence", "custom.smoke")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    return {"keys": keys, "signers": signers, "config": config, "before": before, "tid": tid,
            "unapproved": commit_all_ok(repo, "the smoke command changed, not approved")}
