"""The gate tells a changed evidence command by config.yaml at the task's base commit. In a clone that lacks that
commit (a CI checkout of depth 1) it cannot tell, and refuses with the reason rather than take the change for one
that adopts the harness (read 51's F-0097): a command the change rewrote to `true` must not verify a requirement."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers

from support.flows import changed_command

UNREAD = "is not in this clone"


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
        f"REQ-001 cites custom.smoke, but the task's base commit {_base(repo, changed['tid'])[:12]} {UNREAD} (a "
        "shallow checkout?): whether custom.smoke's command changed since cannot be told, so it cannot verify a must "
        "requirement here — fetch the history (`git fetch --unshallow`)"]
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
