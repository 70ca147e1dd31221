"""A refused commit names its actual cause: the path left unstaged, or the hand edit `harness replay --write` undoes."""

from __future__ import annotations

import pytest

from support.flows import gated_done
from support.gitrepo import commit_all_ok, git, refused_commit
from support.records import set_state_by_hand


@pytest.mark.e2e  # commits through the installed native git hooks
def test_a_partial_commit_of_a_gated_done_task_names_the_unstaged_path(h, repo):
    h.ok("install")
    commit_all_ok(repo, "harness init")
    (repo / "app.py").write_text("def answer():\n    return 6 * 7\n")
    (repo / "util.py").write_text("X = 1\n")
    gated_done(h)  # the gate judged app.py and util.py as they are on disk
    git(repo, "add", ".harness", "app.py")  # util.py is left out
    text = refused_commit(repo, "done, but not all of it")
    assert "util.py" in text and "git add util.py" in text
    assert "rebase, cherry-pick" not in text
    git(repo, "add", "util.py")
    assert git(repo, "commit", "-qm", "all of it", check=False).returncode == 0


@pytest.mark.e2e  # commits through the installed native git hooks
def test_a_hand_edited_task_yaml_is_pointed_at_replay_write(h, repo):
    h.ok("install")
    commit_all_ok(repo, "harness init")
    tid = h.ok("task", "new", "Hand edit").out.strip()
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "claim done")
    assert "harness replay --write" in text
    r = h("replay")
    assert r.code == 2 and "restore the file with `harness replay --write`" in r.err
