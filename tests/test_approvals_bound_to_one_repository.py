"""An approval is signed for one repository, named by the first root commit of its history; a merge may
not give the history another name. An unrelated history without `.harness/` whose root sorts first
would make the repository that history's, and an approval signed there would count here (#28's task
F-0156)."""

from __future__ import annotations

import pytest

from support.cli import cli
from support.gitrepo import git


def _root(repo, rev: str = "HEAD") -> str:
    return min(git(repo, "rev-list", "--max-parents=0", rev).stdout.split())


def _unrelated_root_sorting(repo, before: str, below: bool) -> str:
    """An orphan branch `other` whose one commit (no `.harness/`) sorts below (or above) ``before``."""
    git(repo, "checkout", "-q", "--orphan", "other")
    git(repo, "rm", "-rq", "--cached", ".")
    for n in range(200):
        (repo / "lib.txt").write_text(f"a library's history {n}\n")
        git(repo, "add", "lib.txt")
        git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", f"library {n}", "--", "lib.txt")
        sha = git(repo, "rev-parse", "HEAD").stdout.strip()
        if (sha < before) == below:
            break
        git(repo, "update-ref", "-d", "refs/heads/other")
    git(repo, "clean", "-fdqx", "-e", ".harness")
    git(repo, "checkout", "-q", "-f", "main")
    return sha


def _merge_other(repo) -> None:
    git(repo, "merge", "-q", "--no-edit", "--no-verify", "--allow-unrelated-histories", "other")


def test_a_merge_that_would_rename_the_repository_is_refused(h, repo, task):
    from support.gitrepo import commit_all_ok

    commit_all_ok(repo, "the task")
    base, own = git(repo, "rev-parse", "HEAD").stdout.strip(), _root(repo)
    other = _unrelated_root_sorting(repo, own, below=True)
    _merge_other(repo)
    assert _root(repo) == other  # the history's first root is now the other repository's
    r = cli(repo, "audit", "--from", base)
    assert r.returncode == 1 and "one-repository" in r.stderr, r.stdout + r.stderr
    assert other[:12] in r.stderr and own[:12] in r.stderr


def test_a_merge_of_an_unrelated_history_that_keeps_the_name_is_accepted(h, repo, task):
    from support.gitrepo import commit_all_ok

    commit_all_ok(repo, "the task")
    base, own = git(repo, "rev-parse", "HEAD").stdout.strip(), _root(repo)
    _unrelated_root_sorting(repo, own, below=False)
    _merge_other(repo)
    assert _root(repo) == own
    r = cli(repo, "audit", "--from", base)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.e2e
def test_the_merge_itself_is_refused_by_the_merge_guard(pc):
    # git merge runs pre-merge-commit: refused before the merge commit is made, not only at the push.
    repo = pc.repo
    tip, own = git(repo, "rev-parse", "HEAD").stdout.strip(), _root(repo)
    other = _unrelated_root_sorting(repo, own, below=True)
    p = git(repo, "merge", "--no-edit", "--allow-unrelated-histories", "other", check=False)
    assert p.returncode != 0, p.stdout + p.stderr
    assert "one-repository" in p.stdout + p.stderr and other[:12] in p.stdout + p.stderr
    assert git(repo, "rev-parse", "HEAD").stdout.strip() == tip
