"""An approval is signed for one repository, named by the first root commit of its history; a merge may
not give the history another name. An unrelated history without `.harness/` whose root sorts first
would make the repository that history's, and an approval signed there would count here (#28's task
F-0156)."""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from support.cli import cli
from support.gitrepo import git


def _root(repo, rev: str = "HEAD") -> str:
    return min(git(repo, "rev-list", "--max-parents=0", rev).stdout.split())


def _unrelated_root_sorting(repo, before: str, below: bool) -> str:
    """A branch `other` whose one root commit (no `.harness/`) sorts below (or above) ``before``.

    The commit's id is searched for in-process (hashing the object as git would) rather than by
    committing up to N times: a root of our own that sorts near the bottom made N tries fail now
    and then, and the test then failed for luck instead of behaviour."""
    blob = _git_in(repo, b"a library's history\n", "hash-object", "-w", "--stdin")
    tree = _git_in(repo, f"100644 blob {blob}\tlib.txt\n".encode(), "mktree")
    ident = "A Library <library@example.com> 1700000000 +0000"
    for n in range(1 << 26):
        body = f"tree {tree}\nauthor {ident}\ncommitter {ident}\n\nlibrary {n}\n".encode()
        sha = hashlib.sha1(b"commit %d\0" % len(body) + body).hexdigest()
        if (sha < before) == below:
            break
    else:
        raise AssertionError(f"no commit id sorts {'below' if below else 'above'} {before}")
    assert _git_in(repo, body, "hash-object", "-w", "-t", "commit", "--stdin") == sha
    git(repo, "update-ref", "refs/heads/other", sha)
    return sha


def _git_in(repo, data: bytes, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, check=True).stdout.decode().strip()


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


def _shallow(repo, tmp_path):
    from support.gitrepo import commit_all_ok

    commit_all_ok(repo, "the task")
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "one more, so the clone's boundary is no root")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    return shallow


def test_a_shallow_clone_cannot_tell_whether_a_merged_history_renames_the_repository(h, repo, task, tmp_path):
    """#27's task F-0008: the clone's boundary is no first root; a merged unrelated root is compared with
    it by chance. Refused with the reason, whichever way the ids sort."""
    shallow = _shallow(repo, tmp_path)
    git(shallow, "checkout", "-q", "--orphan", "other")
    git(shallow, "rm", "-rq", "--cached", ".")
    (shallow / "lib.txt").write_text("a library's history\n")
    git(shallow, "add", "lib.txt")
    git(shallow, "commit", "-q", "--no-verify", "-m", "library", "--", "lib.txt")
    git(shallow, "clean", "-fdqx", "-e", ".harness")
    git(shallow, "checkout", "-q", "-f", "main")
    git(shallow, "merge", "-q", "--no-commit", "--no-verify", "--allow-unrelated-histories", "other")
    r = cli(shallow, "hook", "merge-guard")
    assert r.returncode == 1 and "one-repository" in r.stderr and "shallow" in r.stderr, r.stdout + r.stderr
    assert "git fetch --unshallow" in r.stderr


def test_a_merge_of_the_shallow_clones_own_history_is_accepted(h, repo, task, tmp_path):
    shallow = _shallow(repo, tmp_path)
    git(shallow, "checkout", "-q", "-b", "side")
    git(shallow, "commit", "-q", "--allow-empty", "--no-verify", "-m", "on the side")
    git(shallow, "checkout", "-q", "main")
    git(shallow, "commit", "-q", "--allow-empty", "--no-verify", "-m", "on main")
    git(shallow, "merge", "-q", "--no-commit", "--no-verify", "side")
    r = cli(shallow, "hook", "merge-guard")
    assert r.returncode == 0, r.stdout + r.stderr
