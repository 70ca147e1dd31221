"""A blob read from a commit is kept by its object id for the process's next reads: the same bytes
from any commit or path holding it, the size limits still applied, the memory bounded."""

from __future__ import annotations

import pytest

from harness.core import file_caps
from harness.errors import HarnessError
from harness.gitio import blob_memo
from harness.gitio.git import Git
from harness.gitio.tree_source import of_commit

from support.gitrepo import commit_all_ok

BIG = ("x" * 99 + "\n") * 400  # 40 kB: over blob_memo.SMALL, so it is kept


@pytest.fixture
def big_file(h, repo) -> tuple[Git, str, str]:
    """(git, the commit adding .harness/notes.jsonl, the commit after it, which changes code only)."""
    blob_memo.forget()
    (repo / ".harness" / "notes.jsonl").write_text(BIG)
    first = commit_all_ok(repo, "a big file")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    return Git(repo), first, commit_all_ok(repo, "code only")


def test_the_second_read_of_a_blob_is_the_first_reads_bytes_without_git(big_file, monkeypatch):
    git, first, second = big_file
    inflated = []
    keep = blob_memo.keep
    monkeypatch.setattr(blob_memo, "keep", lambda oid, data: inflated.append(oid) or keep(oid, data))
    a = of_commit(git, first).read(".harness/notes.jsonl")
    b = of_commit(git, second).read(".harness/notes.jsonl")
    c = git.read_at(second, ".harness/notes.jsonl")
    assert a == b == c == BIG.encode()
    assert len(inflated) == 1


def test_a_kept_blob_over_the_limit_is_refused_as_a_fresh_one_is(big_file, monkeypatch):
    git, first, second = big_file
    monkeypatch.setitem(file_caps.CAPS, "ledger", 1024)
    with pytest.raises(HarnessError) as fresh:
        of_commit(git, first).read(".harness/notes.jsonl")
    monkeypatch.setitem(file_caps.CAPS, "ledger", 64 * file_caps.MiB)
    assert of_commit(git, first).read(".harness/notes.jsonl") == BIG.encode()  # kept now
    monkeypatch.setitem(file_caps.CAPS, "ledger", 1024)
    with pytest.raises(HarnessError) as kept:
        of_commit(git, first).read(".harness/notes.jsonl")
    assert kept.value.render() == fresh.value.render()
    assert f"{len(BIG)} bytes" in kept.value.render()


def test_the_memory_kept_is_bounded(h, repo, monkeypatch):
    blob_memo.forget()
    monkeypatch.setattr(blob_memo, "KEPT_BYTES", 3 * len(BIG))  # a blob over a quarter of it is not kept
    assert blob_memo.keep("a", BIG.encode()) and blob_memo.kept("a") is None
    monkeypatch.setattr(blob_memo, "KEPT_BYTES", 5 * len(BIG))
    for oid in "abcdef":
        blob_memo.keep(oid, BIG.encode())
    assert [o for o in "abcdef" if blob_memo.kept(o) is not None] == list("bcdef")
    blob_memo.kept("b")  # read again: the most recently used now
    blob_memo.keep("g", BIG.encode())
    assert [o for o in "abcdefg" if blob_memo.kept(o) is not None] == list("bdefg")
    small = b"tiny\n"
    assert blob_memo.keep("s", small) == small and blob_memo.kept("s") is None
    blob_memo.forget()
