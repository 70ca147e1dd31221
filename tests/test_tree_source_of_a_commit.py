"""A commit's files read through `TreeSource.at` (as the gate reads a task's base) answer every question a
tree source answers: the working tree compared with it and HEAD's tree included, not only file reads."""

from __future__ import annotations

from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource, of_commit

from support.gitrepo import commit_all_ok


def test_a_commits_source_compares_the_working_tree_as_the_index_source_does(h, repo) -> None:
    first = commit_all_ok(repo, "first")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    second = commit_all_ok(repo, "code only")
    git = Git(repo)
    tree = git.strip_harness(git.commit_tree(first))
    at_first = of_commit(git, first)
    assert at_first is not None and at_first.label == f"commit {first[:12]}" and at_first.rev == first
    index = TreeSource(git, git.commit_tree(second), "index")
    assert at_first.since_tree(tree, ["app.py"]) == index.since_tree(tree, ["app.py"]) == ([], ["app.py"])
    assert at_first.head_tree() == index.head_tree() == git.commit_tree(second)
    assert index.at(first).read("app.py") == at_first.read("app.py")


def test_no_commit_of_that_name_is_no_source(h, repo) -> None:
    commit_all_ok(repo, "first")
    assert of_commit(Git(repo), "0" * 40) is None
