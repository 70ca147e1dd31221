"""The one parser of a git folder listing (harness.core.tree_listing): every mode git and libgit2 read alike is read
as git reads it, every other refused; what git's fsck refuses (a name twice, out of order) is refused; and the
readers built on it answer as libgit2 did for every listing git itself writes (a differential test)."""

from __future__ import annotations

import os

import pytest

from harness.core.tree_listing import (
    AMBIGUOUS,
    FILE,
    FOLDER,
    SUBMODULE,
    SYMLINK,
    Entry,
    changes,
    kind_of,
    lookup,
    parse,
)
from harness.errors import HarnessError

from support.gitrepo import commit_all_ok, git

ID = bytes(range(20))


@pytest.mark.parametrize(("mode", "read"), [
    (b"100644", (FILE, 0o100644)), (b"100755", (FILE, 0o100755)), (b"0100644", (FILE, 0o100644)),
    (b"100664", (FILE, 0o100644)), (b"100744", (FILE, 0o100755)), (b"40000", (FOLDER, 0o40000)),
    (b"040000", (FOLDER, 0o40000)), (b"120000", (SYMLINK, 0o120000)), (b"160000", (SUBMODULE, 0o160000)),
    (b"40755", (FOLDER, 0o40000)), (b"120644", (SYMLINK, 0o120000)), (b"160644", (SUBMODULE, 0o160000)),
])
def test_a_mode_both_parsers_read_alike_is_read_as_git_reads_it(mode, read):
    assert kind_of(mode) == read


@pytest.mark.parametrize("mode", [
    b"100160000",  # over 16 bits: git's submodule, libgit2's parse error (F-0429, F-0435)
    b"", b"10064x", b"-100644", b"00000100644",  # no octal number, or longer than any git writes
])
def test_a_mode_libgit2_cannot_parse_refuses_the_listing(mode):
    assert kind_of(mode) is None
    with pytest.raises(HarnessError, match="do not read alike"):
        parse(mode + b" x\0" + ID, 20, "here")


@pytest.mark.parametrize("mode", [
    b"120755",  # a link to git, an executable file to libgit2 (F-0431)
    b"160755", b"120001",  # an executable bit on a submodule's entry or a link: libgit2 reads an executable file
    b"60000", b"170000", b"0",  # a type neither writes: git reads a submodule, libgit2 a file
])
def test_a_mode_the_two_parsers_read_differently_is_refused_where_a_reader_reaches_it(mode):
    # Read 121: not for the listing around it (a root's odd link, which no check reads, blocked every commit on it).
    assert kind_of(mode) is None
    listing = parse(b"100644 a\0" + ID + mode + b" x\0" + ID, 20, "here")
    assert listing["x"].kind == AMBIGUOUS and listing["a"].kind == FILE
    with pytest.raises(HarnessError, match=r"^the root folder in HEAD: the entry 'x' has mode [0-7]+, which git and libgit2 do not"):
        lookup(lambda oid, path: listing, "root", "x", "HEAD")
    assert lookup(lambda oid, path: listing, "root", "a", "HEAD") == listing["a"]


def test_a_listing_is_read_in_git_s_order_a_folder_as_if_its_name_ended_in_a_slash():
    raw = b"100644 a-b\0" + ID + b"40000 a\0" + ID + b"100644 a0\0" + ID
    assert list(parse(raw, 20, "here")) == ["a-b", "a", "a0"]
    assert parse(raw, 20, "here")["a"] == Entry(FOLDER, ID.hex(), 0o40000)


@pytest.mark.parametrize(("raw", "why"), [
    (b"100644 b\0" + ID + b"100644 a\0" + ID, "out of git's order"),
    (b"100644 a\0" + ID + b"100644 a\0" + ID, "more than once"),
    (b"100644 a\0" + ID + b"40000 a\0" + ID, "more than once"),  # a file and a folder of one name: git fsck's duplicate too
    (b"40000 a\0" + ID + b"100644 a-b\0" + ID, "out of git's order"),
    (b"100644 a\0" + ID[:10], "cut short"),
    (b"100644a\0" + ID, "cut short|do not read alike"),
    (b"100644 \0" + ID, "entry name"),
    (b"100644 a/b\0" + ID, "entry name"),
    (b"100644 .git\0" + ID, "not one git can check out"),
])
def test_a_listing_git_s_fsck_refuses_is_refused_with_its_folder_named(raw, why):
    with pytest.raises(HarnessError, match=f"^\\.harness in HEAD: .*({why})"):
        parse(raw, 20, ".harness in HEAD")


def test_lookup_walks_folders_and_finds_nothing_under_a_file():
    listings = {"root": {"d": Entry(FOLDER, "sub", 0o40000), "f": Entry(FILE, "blob", 0o100644)},
                "sub": {"x": Entry(SYMLINK, "link", 0o120000)}}
    asked = []

    def listing_of(oid, path):
        asked.append((oid, path))
        return listings.get(oid)
    assert lookup(listing_of, "root", "d/x") == Entry(SYMLINK, "link", 0o120000)
    assert asked == [("root", ""), ("sub", "d")]
    assert lookup(listing_of, "root", "f/x") is None and lookup(listing_of, "root", "missing/x") is None
    assert lookup(listing_of, "root", "") == Entry(FOLDER, "root", 0o40000)


# -- the readers built on it answer as libgit2 does for what git writes ----------------------------------------

def _libgit2_changes(git_, old: str, new: str) -> list:
    import pygit2

    deltas = git_.repo[old].diff_to_tree(git_.repo[new]).deltas
    return sorted((d.old_file.path, 0) if d.status == pygit2.enums.DeltaStatus.DELETED else (d.new_file.path, d.new_file.mode)
                  for d in deltas)


def test_changes_and_special_entries_match_libgit2_on_git_s_own_trees(repo):
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource

    h = repo / ".harness"
    (h / "tasks/T1").mkdir(parents=True)
    (h / "tasks/T1/task.yaml").write_text("a\n")
    (h / "keep.txt").write_text("k\n")
    (h / "gone.txt").write_text("g\n")
    (h / "d").mkdir()
    (h / "d/inner.txt").write_text("i\n")
    commit_all_ok(repo, "before", "--no-verify")
    before = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    (h / "tasks/T1/task.yaml").write_text("b\n")
    (h / "gone.txt").unlink()
    (h / "keep.txt").chmod(0o755)
    os.symlink("keep.txt", h / "link")
    (h / "tasks/T2").mkdir()
    (h / "tasks/T2/task.yaml").write_text("c\n")
    git(repo, "rm", "-rq", ".harness/d")
    (h / "d").write_text("a file where a folder was\n")
    git(repo, "add", "-A", ".harness")
    commit_all_ok(repo, "after", "--no-verify")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},.harness/vendored")
    git(repo, "commit", "-qm", "a submodule's entry", "--no-verify")
    after = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    g = Git(repo)
    old, new = TreeSource(g, before, "before"), TreeSource(g, after, "after")
    harness_of = {t: git(repo, "rev-parse", f"{t}:.harness").stdout.strip() for t in (before, after)}
    assert sorted(new.changes_since(old, ".harness")) == _libgit2_changes(g, harness_of[before], harness_of[after])
    assert new.special_entries(".harness") == [".harness/link", ".harness/vendored"]
    assert [new.kind(f".harness/{n}") for n in ("d", "link", "vendored", "tasks", "nothing")] == \
        [FILE, SYMLINK, SUBMODULE, FOLDER, None]
    assert new.listdir(".harness/tasks") == ["T1", "T2"] and new.entries(".harness/tasks")["T2"] == \
        git(repo, "rev-parse", "HEAD:.harness/tasks/T2").stdout.strip()
    assert new.same_in(after, before, ".harness/tasks/T1/task.yaml") is False
    assert new.same_in(after, before, ".harness/keep.txt") is True  # the same blob (its mode is not compared)


def test_changes_walk_only_the_folders_that_differ():
    listings = {"o": {"same": Entry(FOLDER, "s", 0o40000), "f": Entry(FILE, "1", 0o100644)},
                "n": {"same": Entry(FOLDER, "s", 0o40000), "f": Entry(FILE, "1", 0o100755)}}
    asked = []

    def listing_of(oid, path):
        asked.append(oid)
        return listings[oid]
    assert changes(listing_of, "o", "n") == [("f", 0o100755)]
    assert asked == ["o", "n"]  # "same" is not opened


def test_the_memo_of_listings_is_bounded_and_a_read_past_its_bound_is_the_same(repo, monkeypatch):
    from harness import context
    from harness.gitio import tree_source
    from harness.gitio.git import Git

    (repo / ".harness/tasks/T1").mkdir(parents=True)
    (repo / ".harness/tasks/T1/task.yaml").write_text("a\n")
    commit_all_ok(repo, "a task", "--no-verify")
    g = Git(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    monkeypatch.setattr(tree_source, "LISTINGS_KEPT", 2)
    memo = context.process()
    for _ in range(3):
        assert tree_source.TreeSource(g, tree, "HEAD").read(".harness/tasks/T1/task.yaml") == b"a\n"
        assert memo.listed_entries <= 2 + max(len(v) + 1 for v in memo.listings.values())


@pytest.mark.parametrize("raw", [
    b"100644 a\0" + ID + b"100644 zzz\0" + ID[:10],  # an id cut short: the push guard passed it, the audit refused
    b"100644 a\0" + ID + b"100644 zzz",  # no NUL: the push guard died with an internal error
    b"120755 a\0" + ID,
])
def test_the_push_fast_path_declines_every_listing_the_readers_refuse(raw):
    # Read 120's F-0437: the push's fast path parsed a listing with a loop of its own. A listing the readers refuse
    # is not one it answers for: the full push guard then refuses it by name (fsck-clean-tree).
    from harness.gitio.push_fast_path import _tree_entries

    if not raw.startswith(b"120755"):  # (a mode read differently is refused where a reader reaches it)
        with pytest.raises(HarnessError):
            parse(raw, 20, "(root)")
    assert _tree_entries(raw, 20) is None


def test_an_ambiguous_folder_mode_is_ordered_as_git_orders_a_folder():
    # Read 122's F-0441: git orders an entry by its mode's type bits (40755 is a folder, `a/`); the parser ordered
    # an ambiguous entry as a file, refusing what git writes and accepting what git's fsck rejects.
    for mode in (b"40755", b"40000"):
        written = b"100644 a.txt\0" + ID + mode + b" a\0" + ID  # as stock `git mktree` writes them: `a.txt` < `a/`
        assert parse(written, 20, "here")["a"].kind == FOLDER
        with pytest.raises(HarnessError, match="out of git's order"):
            parse(mode + b" a\0" + ID + b"100644 a.txt\0" + ID, 20, "here")
    # An ambiguous entry is ordered by its type bits as well: a 60000 entry is no folder to git's order.
    assert parse(b"60000 a\0" + ID + b"100644 a.txt\0" + ID, 20, "here")["a"].kind == AMBIGUOUS
