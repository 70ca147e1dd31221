"""The git enforcement layer end to end, through the real pre-commit framework.

This repository is installed as a pre-commit hook repository (a copy of its files, committed in a
temporary folder: uncommitted work included), the pre-commit framework builds its own environment
for it once per session, and every test drives a user repository with real `git commit`, `git merge`
and `git push` to a local bare remote.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import TO_VERIFYING, Harness, walk_to
from support.flows import collect_passing_evidence, gate_to_converged, gated_done, hand_done_no_verify, new_task
from support.gitrepo import (
    NOTES,
    commit,
    commit_all_ok,
    commit_ok,
    git,
    head,
    note,
    out,
    push,
    push_ok,
    raw_note,
    refused_commit,
    remote_ref,
)
from support.hook_repo import Pc, install_pc
from support.paths import documentation
from support.records import append_event, rechain, set_state_by_hand, task_dir

pytestmark = pytest.mark.e2e  # the real pre-commit framework and git hooks

PY = sys.executable


# =======================================================================================
# The legitimate path
# =======================================================================================

def test_legit_task_committed_step_by_step_is_pushed_and_stamped(pc):
    repo, h = pc.repo, pc.h

    tid = new_task(h)
    commit_all_ok(repo, "plan the task")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    (repo / "app.py").write_text("def answer():\n    return 42\n\n\ndef resume():\n    return True\n")
    commit_all_ok(repo, "implement")
    walk_to(h, "VERIFYING")
    collect_passing_evidence(h)
    commit_all_ok(repo, "verify")
    gate_to_converged(h)
    commit_all_ok(repo, "converged")
    h.ok("transition", "DONE")
    done = commit_all_ok(repo, "done")
    assert git(repo, "status", "--porcelain").stdout == ""

    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == done

    stamp = note(repo, done)
    assert stamp is not None, "post-commit did not stamp the DONE commit"
    assert stamp["commit"] == done
    assert stamp["tasks"][tid]["state"] == "DONE"
    assert stamp["tasks"][tid]["gate"] == "PASS"
    assert set(stamp["tasks"][tid]["fresh_evidence"]) >= {"build", "unit_test"}
    p = push(repo, "origin", NOTES)
    assert p.returncode == 0, out(p)
    assert remote_ref(pc.remote, NOTES) == head(repo, NOTES)


def test_one_commit_with_several_legal_transitions_is_accepted(pc):
    tid = gated_done(pc.h)  # CREATED → … → DONE, all in one commit
    done = commit_all_ok(pc.repo, "whole task in one commit")
    assert note(pc.repo, done)["tasks"][tid]["gate"] == "PASS"
    p = push(pc.repo, "-u", "origin", "main")
    assert p.returncode == 0, out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == done


def test_illegal_jump_hidden_among_legal_transitions_is_refused(pc):
    repo, h = pc.repo, pc.h
    tid = h.ok("task", "new", "Hidden jump").out.strip()
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")  # legal, in this same commit
    append_event(repo, tid, "task.transitioned", {"from": "IMPLEMENTING", "reason": None, "to": "DONE"})
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "sneak DONE")
    assert f".harness/tasks/{tid}/events.jsonl" in text
    assert "IMPLEMENTING" in text and "DONE" in text


def test_forged_gate_pass_event_is_refused_because_the_gate_is_recomputed(pc):
    """A hash-chained gate.evaluated PASS written by hand makes the ledger replay; the hook still
    recomputes the gate from the committed content, where no evidence exists."""
    repo, h = pc.repo, pc.h
    tid = new_task(h, "Forged gate")
    walk_to(h, *TO_VERIFYING, "REVIEWING", "GATING")
    from harness.gitio.git import Git

    tree = Git(repo).worktree_source_tree()
    policy = hashlib.sha256((repo / ".harness/gate.yaml").read_bytes()).hexdigest()
    append_event(repo, tid, "gate.evaluated", {"verdict": "PASS", "tree": tree, "head": head(repo),
                                               "policy": policy, "blockers": []})
    append_event(repo, tid, "task.transitioned", {"from": "GATING", "to": "CONVERGED", "reason": "gate PASS",
                                                  "tree": tree, "policy": policy, "head": head(repo)})
    h.ok("replay", "--write")  # make the YAML projections agree with the forged ledger
    git(repo, "add", "-A")
    text = refused_commit(repo, "forged converge")
    assert "done-needs-gate-pass" in text and "BLOCKED" in text


# =======================================================================================
# Shortcuts refused at commit
# =======================================================================================

def test_hand_edited_done_in_task_yaml_is_refused_naming_file_and_fix(pc):
    repo, h = pc.repo, pc.h
    tid = h.ok("task", "new", "Hand edit").out.strip()
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    commit_all_ok(repo, "implementing")
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "claim DONE")
    assert f".harness/tasks/{tid}/task.yaml" in text
    assert "harness transition" in text  # the fix
    assert "IMPLEMENTING" in text and "DONE" in text


def test_edited_evidence_record_is_refused(pc):
    repo, h = pc.repo, pc.h
    tid = new_task(h, "Evidence edit")
    walk_to(h, *TO_VERIFYING)
    r = h("evidence", "unit_test", "--", PY, "-c", "import sys; sys.exit(1)")
    assert r.code == 1, r.text
    commit_all_ok(repo, "failing evidence, honestly recorded")
    path = task_dir(repo, tid) / "evidence" / "unit_test.json"
    record = json.loads(path.read_text("utf-8"))
    record.update(outcome="passed", exit_code=0)
    path.write_text(json.dumps(record, indent=2) + "\n", "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "make it pass")
    assert "evidence-matches-ledger" in text
    assert f".harness/tasks/{tid}/evidence/unit_test.json" in text


def test_gate_loosening_refused_tightening_accepted_and_approval_bound_to_exact_bytes(pc, tmp_path):
    from support.ssh_keys import approval_line, make_key, signers_line

    repo = pc.repo
    gate = repo / ".harness/gate.yaml"
    original = gate.read_text("utf-8")
    key, public = make_key(tmp_path / "keys", "approver")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    commit_all_ok(repo, "list the approver")

    gate.write_text(original.replace("major_allowed: 0", "major_allowed: 1"), "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "loosen")
    assert ".harness/gate.yaml" in text and "gate-only-tightens" in text
    assert "major_allowed" in text and "harness approve gate-change" in text

    gate.write_text(original.replace("max_iterations: 5", "max_iterations: 3")
                    .replace("integration_test: optional", "integration_test: required"), "utf-8")
    commit_all_ok(repo, "tighten")
    tightened = gate.read_text("utf-8")

    loosened = tightened.replace("major_allowed: 0", "major_allowed: 1")
    gate.write_text(loosened, "utf-8")
    (repo / ".harness/approvals.jsonl").write_text(approval_line(
        "gate-change", loosened.encode("utf-8"), key, changes=["findings.major_allowed raised 0 → 1"]))
    # An edit after the approval (even a comment) voids it.
    gate.write_text(loosened + "# one more line\n", "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "loosen, approval for other bytes")
    assert "gate-only-tightens" in text

    gate.write_text(loosened, "utf-8")
    approved = commit_all_ok(repo, "loosen, approved")
    p = push(repo, "-u", "origin", "main")
    assert p.returncode == 0, out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == approved


def test_approve_gate_change_without_a_terminal_exits_1(pc):
    repo = pc.repo
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text("utf-8").replace("major_allowed: 0", "major_allowed: 1"), "utf-8")
    p = subprocess.run([PY, "-m", "harness", "approve", "gate-change"], cwd=repo, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, out(p)
    assert "interactive terminal" in out(p)
    assert not (repo / ".harness/approvals.jsonl").exists()


def test_deleted_finding_is_refused(pc):
    repo, h = pc.repo, pc.h
    tid = h.ok("task", "new", "Findings stay").out.strip()
    commit_all_ok(repo, "task")
    finding = task_dir(repo, tid) / "findings" / "F-0001.yaml"
    finding.parent.mkdir(parents=True, exist_ok=True)
    finding.write_text("anything: at all\n")
    commit_all_ok(repo, "a finding", "--no-verify")
    git(repo, "rm", "-q", str(finding.relative_to(repo)))
    text = refused_commit(repo, "drop the finding")
    assert "findings-never-deleted" in text
    assert f".harness/tasks/{tid}/findings/F-0001.yaml" in text


def test_rewritten_ledger_line_is_refused_even_with_a_valid_chain(pc):
    repo, h = pc.repo, pc.h
    tid = new_task(h, "Original title")
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")
    path = task_dir(repo, tid) / "events.jsonl"

    def reword(events):
        events[1]["data"]["statement"] = "Something easier"

    rechain(path, reword)
    git(repo, "add", "-A")
    text = refused_commit(repo, "reword the ledger")
    assert "ledger-append-only" in text and "line 2" in text
    assert f".harness/tasks/{tid}/events.jsonl" in text


# =======================================================================================
# What is actually committed: `commit -a`, `commit <path>` (temporary indexes)
# =======================================================================================

def test_commit_a_validates_the_index_git_commits(pc):
    repo, h = pc.repo, pc.h
    tid = h.ok("task", "new", "Commit -a").out.strip()
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")
    set_state_by_hand(repo, tid, "DONE")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    # Nothing is staged: the real index has no .harness change; only `-a`'s index has it.
    assert git(repo, "diff", "--cached", "--name-only").stdout == ""
    text = refused_commit(repo, "commit -a with a hand edit", "-a")
    assert f".harness/tasks/{tid}/task.yaml" in text


def test_commit_of_a_path_validates_its_temporary_index(pc):
    repo, h = pc.repo, pc.h
    tid = h.ok("task", "new", "Commit a path").out.strip()
    commit_all_ok(repo, "task")
    walk_to(h, "SPECIFYING")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    sha = commit_ok(repo, "harness only", "--", ".harness")
    changed = git(repo, "show", "--name-only", "--format=", sha).stdout.split()
    assert changed and all(p.startswith(".harness/") for p in changed), changed
    assert git(repo, "status", "--porcelain").stdout.strip() == "M app.py"
    assert note(repo, sha)["tasks"][tid]["state"] == "SPECIFYING"


def test_committing_only_part_of_what_the_gate_judged_is_refused(pc):
    """The gate PASS covers app.py's change; `git commit .harness` leaves it out (while the real
    index has it staged): validation must judge the temporary index, and refuse."""
    repo, h = pc.repo, pc.h
    tid = new_task(h)
    walk_to(h, *TO_VERIFYING)
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    # Everything is staged in the real index (where the gate would pass); a path-limited commit
    # takes .harness/ only, from a temporary index, leaving app.py's change out.
    git(repo, "add", "-A")
    text = refused_commit(repo, "only the harness files", "--", ".harness")
    assert "done-needs-gate-pass" in text and tid in text
    # The whole tested tree commits.
    commit_all_ok(repo, "everything the gate judged", "-a")


# =======================================================================================
# Push guard
# =======================================================================================

def test_no_verify_done_commit_is_refused_at_push_and_nothing_reaches_the_remote(pc):
    repo, h = pc.repo, pc.h
    before = remote_ref(pc.remote, "refs/heads/main")
    tid, bad = hand_done_no_verify(repo, h)
    (repo / "app.py").write_text("def answer():\n    return 44\n")
    commit_all_ok(repo, "a clean commit on top does not launder the bad one")
    p = push(repo)
    assert p.returncode != 0, out(p)
    assert bad[:12] in out(p)
    assert f".harness/tasks/{tid}/task.yaml" in out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == before


def test_stale_evidence_at_the_done_commit_is_refused_at_push(pc):
    repo, h = pc.repo, pc.h
    before = remote_ref(pc.remote, "refs/heads/main")
    tid = gated_done(h)
    (repo / "app.py").write_text("def answer():\n    return 'changed after the gate'\n")
    git(repo, "add", "-A")
    text = refused_commit(repo, "done with untested code")  # the commit hook says no...
    assert "done-needs-gate-pass" in text
    bad = commit_ok(repo, "done with untested code", "--no-verify")  # ...so it is bypassed
    p = push(repo)
    assert p.returncode != 0, out(p)
    assert bad[:12] in out(p) and tid in out(p)
    assert "stale" in out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == before


def test_gated_done_pushes_with_its_note_and_later_code_commits_still_push(pc):
    repo, h = pc.repo, pc.h
    tid = gated_done(h)
    done = commit_all_ok(repo, "done")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert note(repo, done)["tasks"][tid]["gate"] == "PASS"

    for n in range(2):
        (repo / "app.py").write_text(f"def answer():\n    return {50 + n}\n")
        commit_all_ok(repo, f"code after DONE {n}")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == head(repo)
    later = note(repo, "HEAD")
    assert later is not None and later["tasks"][tid]["state"] == "DONE"


def fresh_pc_repo(root: Path, capfd, hook_repo: dict) -> tuple[Path, Harness]:
    """A repository whose very first (root) commit already holds .harness/ and the pre-commit config."""
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("def answer():\n    return 42\n")
    h = Harness(root, capfd)
    h.ok("init")
    install_pc(root, hook_repo)
    git(root, "add", "-A")
    commit_ok(root, "root commit, harness from the start")
    return root, h


def test_new_branch_to_an_empty_remote_is_checked_from_the_root(tmp_path, capfd, hook_repo, monkeypatch):
    """Pushing a history that reaches a root commit: pre-commit passes no from/to refs."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hook_repo["home"]))
    repo, h = fresh_pc_repo(tmp_path / "fresh", capfd, hook_repo)
    remote = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))

    git(repo, "checkout", "-q", "-b", "topic")
    tid, bad = hand_done_no_verify(repo, h)
    p = push(repo, "origin", "topic")
    assert p.returncode != 0, out(p)
    assert bad[:12] in out(p)
    assert remote_ref(remote, "refs/heads/topic") is None

    git(repo, "checkout", "-q", "main")
    gated_done(h, "Honest work")
    good = commit_all_ok(repo, "honest DONE")
    p = push(repo, "origin", "main")  # the remote is still empty: the root path again
    assert p.returncode == 0, out(p)
    assert remote_ref(remote, "refs/heads/main") == good
    checked = re.search(r"push guard: (\d+) commit\(s\) checked", out(p))
    assert checked and int(checked.group(1)) == 2, out(p)  # the root commit and the DONE commit

    # The remote is no longer empty: a new branch now has a base there; still refused.
    p = push(repo, "origin", "topic")
    assert p.returncode != 0 and bad[:12] in out(p), out(p)
    assert remote_ref(remote, "refs/heads/topic") is None


def test_history_from_before_harness_init_pushes_to_an_empty_remote(h, repo, tmp_path, hook_repo, monkeypatch):
    """Most repositories adopt the harness with history: commits from before `harness init` hold no
    .harness/ at all, and there is nothing in them for the harness to judge."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hook_repo["home"]))
    install_pc(repo, hook_repo)
    adopted = commit_all_ok(repo, "adopt the harness")  # `repo`'s root commit predates it
    remote = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    push_ok(repo, "origin", "main")
    assert remote_ref(remote, "refs/heads/main") == adopted


def test_code_commit_in_a_repository_without_harness_is_not_refused(repo, hook_repo, monkeypatch):
    """The pre-commit hooks installed before `harness init` (or on a branch from before it): a code
    commit changes no .harness/ file, and there is nothing to validate."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hook_repo["home"]))
    install_pc(repo, hook_repo)
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit_all_ok(repo, "code, before harness init")


def test_pushing_notes_is_accepted_and_judged_by_content_not_name(pc):
    repo, h = pc.repo, pc.h
    hand_done_no_verify(repo, h)
    assert push(repo).returncode != 0  # the branch would be refused...
    assert head(repo, NOTES)  # (post-commit stamped even the --no-verify commit)
    p = push(repo, "origin", NOTES)  # ...its notes are not
    assert p.returncode == 0, out(p)
    assert "refused" not in out(p)
    # Notes commits are checked like any commit (a ref's name proves nothing); they carry
    # no .harness/, so they pass. The framework sees only this first ref, and says so.
    assert "commit(s) checked, no problems" in out(p), out(p)  # (verbose: true shows the guard's word)
    assert "passes only the first pushed ref" in out(p)
    assert remote_ref(pc.remote, NOTES) == head(repo, NOTES)


# =======================================================================================
# Merges
# =======================================================================================

def test_merge_of_an_ungated_done_is_refused_by_pre_merge_commit(pc):
    repo, h = pc.repo, pc.h
    git(repo, "checkout", "-q", "-b", "shortcut")
    tid, bad = hand_done_no_verify(repo, h)
    git(repo, "checkout", "-q", "main")
    (repo / "app.py").write_text("def answer():\n    return 42  # main moved on\n")
    main_tip = commit_all_ok(repo, "main moves on")
    p = git(repo, "merge", "--no-ff", "-m", "merge shortcut", "shortcut", check=False)
    assert p.returncode != 0, out(p)
    assert f".harness/tasks/{tid}/task.yaml" in out(p)
    assert head(repo) == main_tip, "the merge commit was created"


def stale_done_then_reverted(pc: Pc) -> tuple[str, str]:
    """On branch `sneaky`: a DONE committed (--no-verify) on code the gate never judged, then a
    commit putting the judged code back. The branch tip is consistent; the DONE commit is not.
    Returns (task id, the bad DONE commit)."""
    repo, h = pc.repo, pc.h
    git(repo, "checkout", "-q", "-b", "sneaky")
    original = (repo / "app.py").read_text()
    tid = gated_done(h)
    (repo / "app.py").write_text("def answer():\n    return 'never tested'\n")
    bad = commit_all_ok(repo, "DONE on untested code", "--no-verify")
    (repo / "app.py").write_text(original)
    commit_all_ok(repo, "put the tested code back")
    git(repo, "checkout", "-q", "main")
    return tid, bad


def test_merge_guard_names_an_incoming_done_commit_without_a_gate_pass(pc):
    """DESIGN §9, pre-merge-commit: a task marked DONE on the incoming side must have a fresh gate
    PASS at that exact commit. The merge result itself is consistent here (so only the merge
    guard, not the validation of the merged index, can see the bad commit)."""
    repo = pc.repo
    tid, bad = stale_done_then_reverted(pc)
    main_tip = head(repo)
    p = git(repo, "merge", "--no-ff", "-m", "merge sneaky", "sneaky", check=False)
    assert p.returncode != 0, f"the merge was accepted:\n{out(p)}"
    assert "merge guard" in out(p) and bad[:12] in out(p), out(p)
    assert head(repo) == main_tip


def test_merge_guard_runs_when_a_conflicted_merge_is_committed(pc):
    """After a conflict the merge is concluded by `git commit`: pre-commit with MERGE_HEAD set."""
    repo = pc.repo
    tid, bad = stale_done_then_reverted(pc)
    git(repo, "checkout", "-q", "sneaky")
    (repo / "notes.txt").write_text("sneaky side\n")
    commit_all_ok(repo, "sneaky notes")
    git(repo, "checkout", "-q", "main")
    (repo / "notes.txt").write_text("main side\n")
    main_tip = commit_all_ok(repo, "main notes")
    p = git(repo, "merge", "--no-ff", "-m", "merge sneaky", "sneaky", check=False)
    assert p.returncode != 0 and "CONFLICT" in out(p), out(p)
    (repo / "notes.txt").write_text("both sides\n")
    git(repo, "add", "notes.txt")
    p = commit(repo, "merge sneaky")
    assert p.returncode != 0, f"the merge was accepted:\n{out(p)}"
    assert "merge guard" in out(p) and bad[:12] in out(p), out(p)
    assert head(repo) == main_tip


def test_merge_of_a_gated_done_into_a_diverged_main_is_accepted(pc):
    """The incoming DONE has a gate PASS at its own commit (DESIGN §9: that is what the merge guard
    asks). The merge result's source tree differs from it because main moved on; the push guard
    accepts such a merge commit, and so must the commit hook."""
    repo, h = pc.repo, pc.h
    git(repo, "checkout", "-q", "-b", "feature")
    gated_done(h)
    commit_all_ok(repo, "feature done")
    git(repo, "checkout", "-q", "main")
    (repo / "README.txt").write_text("unrelated change on main\n")
    commit_all_ok(repo, "main moves on")
    p = git(repo, "merge", "--no-ff", "-m", "merge feature", "feature", check=False)
    assert p.returncode == 0, out(p)
    merge = head(repo)
    assert len(git(repo, "rev-list", "--parents", "-n1", merge).stdout.split()) == 3
    p = push(repo, "-u", "origin", "main")
    assert p.returncode == 0, out(p)


def test_merge_without_divergence_of_a_gated_done_is_accepted(pc):
    repo, h = pc.repo, pc.h
    git(repo, "checkout", "-q", "-b", "feature")
    gated_done(h)
    commit_all_ok(repo, "feature done")
    git(repo, "checkout", "-q", "main")
    p = git(repo, "merge", "--no-ff", "-m", "merge feature", "feature", check=False)
    assert p.returncode == 0, out(p)
    assert note(repo, "HEAD") is not None  # post-merge stamped it


# =======================================================================================
# Rewrites: amend and rebase carry notes
# =======================================================================================

def documented_notes_config(repo: Path) -> None:
    """Apply the `git config notes.*` settings the documentation (docs/git.md) tells pre-commit users to
    make (the same that `harness install` makes for native hooks)."""
    readme = documentation()
    settings = re.findall(r"git config (notes\.[A-Za-z.]+) ([^\s`]+)", readme)
    assert ("notes.rewriteRef", NOTES) in settings, f"the documentation does not say to set notes.rewriteRef: {settings}"
    for key, value in settings:
        git(repo, "config", key, value)


def test_amend_leaves_a_note_on_the_new_head(pc):
    repo, h = pc.repo, pc.h
    documented_notes_config(repo)
    tid = gated_done(h)
    first = commit_all_ok(repo, "done")
    second = commit_ok(repo, "done (reworded)", "--amend")
    assert second != first
    stamp = note(repo, second)
    assert stamp is not None and stamp["commit"] == second
    assert stamp["tasks"][tid]["gate"] == "PASS"


def test_rebase_leaves_one_parseable_note_per_rewritten_commit(pc):
    """Set up as README.md says, a rebase must leave each rewritten commit one note, about itself
    (post-commit stamps each picked commit, then git copies the old notes over them)."""
    repo = pc.repo
    documented_notes_config(repo)
    for n in range(3):
        (repo / f"f{n}.txt").write_text(f"{n}\n")
        commit_all_ok(repo, f"c{n}")
    git(repo, "rebase", "-q", "--force-rebase", "HEAD~3")
    for rev in ("HEAD~2", "HEAD~1", "HEAD"):
        sha = head(repo, rev)
        text = raw_note(repo, sha)
        assert text is not None, f"{rev} has no note after the rebase"
        try:
            doc = json.loads(text)
        except ValueError:
            pytest.fail(f"the note on {rev} ({sha[:12]}) is not one JSON document after the rebase:\n{text}")
        assert doc["commit"] == sha


def test_amended_done_with_untested_code_is_refused_at_push(pc):
    repo, h = pc.repo, pc.h
    before = remote_ref(pc.remote, "refs/heads/main")
    gated_done(h)
    commit_all_ok(repo, "done")
    (repo / "app.py").write_text("def answer():\n    return 'slipped in by amend'\n")
    amended = commit_ok(repo, "done", "-a", "--amend", "--no-verify")
    p = push(repo)
    assert p.returncode != 0, out(p)
    assert amended[:12] in out(p)
    assert remote_ref(pc.remote, "refs/heads/main") == before
