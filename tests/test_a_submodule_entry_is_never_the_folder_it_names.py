"""A `.harness` submodule entry is not the folder whose tree it names: a checkout of it holds none of the
record. The change rules compared the `.harness` ids of a commit and its parents alone, so a commit putting
the folder back after such an entry passed as code-only and its tasks were never judged at it; the stamp's
fast path read its parent's id the same way and stamped that commit from the cache."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.gitrepo import git, harness_as_submodule_entry, head


def _folder_back_after_a_submodule_entry(repo: Path) -> str:
    """Commits (no hooks) a submodule entry naming `.harness`'s tree, then the folder back; returns the tree."""
    tree = harness_as_submodule_entry(repo)
    git(repo, "rm", "-q", "--cached", ".harness")
    git(repo, "add", ".harness")
    git(repo, "commit", "-q", "--no-verify", "-m", "the folder back")
    assert head(repo, "HEAD:.harness") == tree
    return tree


def test_the_change_rules_judge_a_folder_that_replaces_a_submodule_entry_naming_it(h) -> None:
    """Before the predicate, the change rules compared ids alone: the folder restored after a submodule entry
    naming its tree was "untouched", so its tasks were never judged at that commit."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.change_rules import validate_change

    h.ok("task", "new", "A task the rules must see")
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    _folder_back_after_a_submodule_entry(h.root)
    g = Git(h.root)
    source = [TreeSource(g, g.commit_tree(head(h.root, rev)), "") for rev in ("HEAD~1", "HEAD")]
    problems, verdicts = validate_change([source[0]], source[1], g.source_tree(head(h.root, "HEAD")))
    assert [v.id for v in verdicts], "the task was not judged: the commit passed as code-only"


def _quick_stamp(repo: Path) -> bool:
    from harness.history.stamp import quick_stamp_head

    old = os.getcwd()
    os.chdir(repo)
    try:
        return quick_stamp_head()
    finally:
        os.chdir(old)


def test_the_stamp_of_a_folder_after_a_submodule_entry_is_not_taken_from_the_cache(h) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    h.ok("stamp", "HEAD")  # the cache now knows this .harness tree
    (h.root / "app.py").write_text("print(1)\n")
    git(h.root, "add", "app.py")
    git(h.root, "commit", "-q", "--no-verify", "-m", "code only")
    assert _quick_stamp(h.root) is True  # the control: a code-only commit is stamped from the cache
    _folder_back_after_a_submodule_entry(h.root)
    assert _quick_stamp(h.root) is False  # the same tree, but its parent held no folder: stamped in full
