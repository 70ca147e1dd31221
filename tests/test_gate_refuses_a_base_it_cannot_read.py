"""The gate tells a changed evidence command by config.yaml at the task's base commit. In a clone that lacks that
commit (a CI checkout of depth 1) it cannot tell, and refuses with the reason rather than take the change for one
that adopts the harness (read 51's F-0097): a command the change rewrote to `true` must not verify a requirement.
The refusal names the remedy that fits (a complete clone whose history was rewritten is not told to unshallow,
F-0099), what it found is not kept by the stamp for after the base arrives (F-0100), and a clone that holds the
base but not its files (a partial clone, F-0101) or a linked worktree of a shallow clone (F-0103) is stamped, not
crashed (read 52)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers

from support.flows import changed_command
from support.gitrepo import git, head
from support.paths import PY

UNREAD = "is not in this repository"


@pytest.fixture
def changed(h, repo, tmp_path) -> dict:
    return changed_command(h, repo, tmp_path)


def _blockers(repo: Path, commit: str, tid: str) -> list[str]:
    note = stamping.stamp_for(Git(repo), commit, Signers(lambda: Git(repo)), StampCache(None))[1]
    return note["tasks"][tid]["blockers"]


def test_a_clone_without_the_task_s_base_refuses_the_cited_command_naming_why(changed, repo, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True)
    blockers = _blockers(clone, changed["unapproved"], changed["tid"])
    assert [b for b in blockers if "custom.smoke" in b] == [
        f"REQ-001 cites custom.smoke, but the task's base commit {_base(repo, changed['tid'])[:12]} {UNREAD}: whether "
        "custom.smoke's command changed since cannot be told, so it cannot verify a must requirement here — this clone "
        "is shallow: fetch its history (`git fetch --unshallow`)"]
    subprocess.run(["git", "fetch", "-q", "--unshallow"], cwd=clone, check=True, capture_output=True)
    after = _blockers(clone, changed["unapproved"], changed["tid"])
    assert not any(UNREAD in b for b in after) and any("not the one config.yaml configured" in b for b in after)


def test_with_the_base_at_hand_nothing_changes(changed, repo):
    """The full repository: the changed command is blocked as introduced, and no word of an unread base."""
    blockers = _blockers(repo, changed["unapproved"], changed["tid"])
    assert not any(UNREAD in b for b in blockers) and any("not the one config.yaml configured" in b for b in blockers)


def _base(repo: Path, tid: str) -> str:
    import json

    first = (repo / ".harness/tasks" / tid / "events.jsonl").read_text().splitlines()[0]
    return json.loads(first)["data"]["base_commit"]  # task.created names the base


def _squashed_clone(repo: Path, changed: dict, where: Path) -> tuple[Path, str]:
    """A complete (not shallow) clone of a branch whose history was squashed into one commit: the base is not in it."""
    git(repo, "branch", "-q", "keep", changed["unapproved"])
    git(repo, "checkout", "-q", "--orphan", "squashed")
    git(repo, "commit", "-q", "-m", "the change, squashed")
    tip = head(repo)
    subprocess.run(["git", "clone", "-q", "--single-branch", "-b", "squashed", f"file://{repo}", str(where)], check=True,
                   capture_output=True)
    return where, tip


def test_a_complete_clone_whose_history_was_rewritten_is_not_told_to_unshallow(changed, repo, tmp_path):
    clone, tip = _squashed_clone(repo, changed, tmp_path / "ci")
    named = [b for b in _blockers(clone, tip, changed["tid"]) if "custom.smoke" in b]
    assert len(named) == 1 and UNREAD in named[0] and "rewritten" in named[0] and "unshallow" not in named[0], named


def test_a_refusal_for_an_absent_base_is_not_kept_for_after_it_arrives(changed, repo, tmp_path):
    from support.gitrepo import note

    clone, tip = _squashed_clone(repo, changed, tmp_path / "ci")
    stamping.stamp(Git(clone), tip, Signers(lambda: Git(clone)))
    assert any(UNREAD in b for b in note(clone, tip)["tasks"][changed["tid"]]["blockers"])
    git(clone, "fetch", "-q", f"file://{repo}", "keep")
    stamping.stamp(Git(clone), tip, Signers(lambda: Git(clone)))
    after = note(clone, tip)["tasks"][changed["tid"]]["blockers"]
    assert after == _blockers(clone, tip, changed["tid"]) and not any(UNREAD in b for b in after)


def _stamp_cli(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "harness", "stamp", "HEAD"], cwd=where, capture_output=True, text=True, timeout=120)


def test_a_partial_clone_without_the_base_s_files_is_stamped_with_the_reason(changed, repo, tmp_path):
    git(repo, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "blobless"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", f"file://{repo}", str(clone)], check=True,
                   capture_output=True)
    r = _stamp_cli(clone)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "is not in this clone" in r.stdout + r.stderr and "partial clone" in r.stdout + r.stderr


def test_a_linked_worktree_of_a_shallow_clone_is_stamped_as_its_main_worktree_is(changed, repo, tmp_path):
    clone, worktree = tmp_path / "clone", tmp_path / "worktree"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True)
    git(clone, "worktree", "add", "-q", "--detach", str(worktree), "HEAD")
    main, linked = _stamp_cli(clone), _stamp_cli(worktree)
    assert main.returncode == linked.returncode == 0 and "Traceback" not in linked.stderr, linked.stderr
    assert UNREAD in linked.stdout + linked.stderr
