"""A code-only push walks its commits in the `git cat-file --batch` it already runs instead of starting
`git rev-list`: from the tip down to the remote's old commit, each with one parent as git's revision
parser sees it (replaced commits included). Whatever else it meets (a merge, a root, a rewind, a diverged
history, a long walk) is asked of rev-list as before; either way the push gets the answer it had."""

from __future__ import annotations

import subprocess

import pytest

from harness.gitio import push_fast_path
from harness.gitio.push_fast_path import code_only_push

from support.gitrepo import commit_all_ok, git, head


def line(repo, tip: str, old: str) -> bytes:
    return f"refs/heads/main {head(repo, tip)} refs/heads/main {head(repo, old)}\n".encode()


def code_commits(repo, n: int, name: str = "code.txt") -> None:
    for i in range(n):
        (repo / "src").mkdir(exist_ok=True)
        (repo / "src" / name).write_text(f"revision {i}\n")
        commit_all_ok(repo, f"{name} {i}")


@pytest.fixture
def pushed(h, task, monkeypatch):
    """A committed harness, then three code-only commits to push; run from the repository."""
    commit_all_ok(h.root, "task")
    base = head(h.root)
    code_commits(h.root, 3)
    monkeypatch.chdir(h.root)
    return h.root, base


@pytest.fixture
def started(monkeypatch) -> list[list[str]]:
    """The git commands the push fast path starts."""
    asked: list[list[str]] = []
    real = push_fast_path._start
    monkeypatch.setattr(push_fast_path, "_start", lambda argv, feed: asked.append(argv[1:]) or real(argv, feed))
    return asked


def as_rev_list(monkeypatch, lines: list[bytes]) -> int | None:
    with monkeypatch.context() as m:
        m.setattr(push_fast_path, "_walked", lambda objects, tip, old: None)
        return code_only_push(lines, "origin")


def test_a_code_only_push_starts_no_rev_list(pushed, started, monkeypatch):
    repo, base = pushed
    assert code_only_push([line(repo, "HEAD", base)], "origin") == 3
    assert [argv[0] for argv in started] == ["config", "cat-file"]
    assert as_rev_list(monkeypatch, [line(repo, "HEAD", base)]) == 3


def test_the_walk_lists_what_rev_list_lists(pushed):
    repo, base = pushed
    objects = push_fast_path._Objects()
    try:
        walked = push_fast_path._walked(objects, head(repo), head(repo, base))
    finally:
        objects.close()
    listed = git(repo, "rev-list", "--parents", head(repo), "--not", head(repo, base)).stdout.splitlines()
    assert walked == listed


def test_a_long_walk_is_left_to_rev_list(pushed, started, monkeypatch):
    repo, base = pushed
    monkeypatch.setattr(push_fast_path, "MAX_WALKED", 2)
    assert code_only_push([line(repo, "HEAD", base)], "origin") == 3
    assert "rev-list" in [argv[0] for argv in started]


def test_a_rewind_a_merge_and_a_diverged_history_get_rev_list_s_answer(pushed, monkeypatch):
    repo, base = pushed
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    rewind = [line(repo, "HEAD~2", "HEAD")]
    assert code_only_push(rewind, "origin") == as_rev_list(monkeypatch, rewind) == 0
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    code_commits(repo, 2, "side.txt")
    diverged = [line(repo, "side", main)]
    assert code_only_push(diverged, "origin") == as_rev_list(monkeypatch, diverged) == 2
    git(repo, "checkout", "-q", main)
    git(repo, "merge", "-q", "--no-edit", "side")
    merged = [line(repo, "HEAD", base)]
    assert code_only_push(merged, "origin") is None and as_rev_list(monkeypatch, merged) is None


def test_a_replaced_parent_counts_as_rev_list_counts_it(pushed, monkeypatch):
    repo, base = pushed
    # HEAD~1's parent is made the base's own parent: rev-list (and the walk) see HEAD~1 reach past the base.
    subprocess.run(["git", "replace", "--graft", head(repo, "HEAD~1"), head(repo, f"{base}~1")], cwd=repo,
                   check=True, capture_output=True)
    push = [line(repo, "HEAD", base)]
    assert code_only_push(push, "origin") == as_rev_list(monkeypatch, push)
