"""A commit's file as the read-only commands read it (HEAD's config.yaml, a task base's): its bytes, or None where
the commit holds no file there, and a file over the cap refused before its bytes are read, in one git process."""

from __future__ import annotations

import os
import subprocess

import pytest

from harness.errors import HarnessError
from harness.gitio.fast_path import CommitFiles

from support.gitrepo import commit_all_ok, git


@pytest.fixture
def files(repo):
    (repo / ".harness").mkdir()
    (repo / ".harness/config.yaml").write_bytes(b"version: 1\n")
    (repo / "big.txt").write_bytes(b"x" * 64)
    (repo / "exactly.txt").write_bytes(b"y" * 32)
    (repo / "odd\nname.txt").write_bytes(b"a name with a line break\n")
    os.symlink("app.py", repo / "link.py")
    os.symlink("app.py", repo / "odd\nlink.py")
    (repo / "in").mkdir()
    os.symlink("../app.py", repo / "in/link.py")
    commit_all_ok(repo, "files", "--no-verify")
    # A submodule's entry: a commit this repository does not hold.
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},vendored")
    git(repo, "commit", "-qm", "a submodule entry", "--no-verify")
    return CommitFiles.of_head(repo)


@pytest.fixture
def started(monkeypatch) -> list:
    """The argv of each process started from here on (how many git processes a read costs)."""
    argvs: list = []
    real = subprocess.Popen.__init__

    def counted(self, args, *rest, **kw):
        argvs.append(args)
        real(self, args, *rest, **kw)

    monkeypatch.setattr(subprocess.Popen, "__init__", counted)
    return argvs


def test_a_file_is_its_blob_s_bytes(files):
    assert files.read(".harness/config.yaml") == b"version: 1\n"
    assert files.read("app.py") == b"def answer():\n    return 42\n"


def test_a_name_with_a_line_break_is_read_too(files):
    assert files.read("odd\nname.txt") == b"a name with a line break\n"


def test_a_symlink_is_no_file_there(files):
    # As the gate's reader (TreeSource) reads it: a link's blob is its target's name, not a file's content (read
    # 117: status read a committed gate.yaml link as the text `policy.yaml`, the gate as no policy).
    assert files.read("link.py") is None and files.read("in/link.py") is None
    assert files.read("odd\nlink.py") is None  # asked apart: --batch reads one name a line


@pytest.mark.parametrize("rel", ["missing.txt", ".harness", "vendored", "app.py/inside", ""])
def test_no_file_there_is_none(files, rel):
    assert files.read(rel) is None


def test_a_file_over_the_cap_is_refused_and_one_at_it_is_read(files):
    capped = CommitFiles(files.root, files.commit, cap=32)
    with pytest.raises(HarnessError, match=r"big\.txt in commit .* is larger than 32 bytes: refused unread"):
        capped.read("big.txt")
    assert capped.read("exactly.txt") == b"y" * 32


def test_each_read_starts_one_git_process(files, started):
    assert files.read(".harness/config.yaml") == b"version: 1\n"
    assert files.read("missing.txt") is None  # the root folder read for the first answers this one: no git at all
    assert files.read("in/link.py") is None and files.read("app.py")
    assert [a[:2] for a in started] == [["git", "cat-file"]] * 3


def test_one_command_finds_head_once_and_judges_against_it(files, started):
    # config.yaml's approval and gate.yaml's loosening are both judged against HEAD's files: one `git rev-parse`.
    from harness.store.source import FsSource

    source = FsSource(files.root)
    first, again = source.committed_onto(), source.committed_onto()
    assert first is again and first.commit == files.commit
    # ... and HEAD's config.yaml and gate.yaml (none here) come in the same `git cat-file --batch`.
    assert first.read(".harness/config.yaml") == b"version: 1\n" and first.read(".harness/gate.yaml") is None
    assert [a[:2] for a in started] == [["git", "cat-file"]]


def test_files_read_ahead_with_head_read_as_read_reads_them(files, started):
    ahead = ("big.txt", "vendored", ".harness", "missing.txt", "exactly.txt", "app.py", "link.py", "in/link.py")
    head = CommitFiles.of_head(files.root, ahead=ahead)
    assert head is not None and head.commit == files.commit and head.label == "HEAD"
    assert [head.read(rel) for rel in ahead] == [b"x" * 64, None, None, None, b"y" * 32,
                                                 b"def answer():\n    return 42\n", None, None]  # a link: no file
    small = CommitFiles.of_head(files.root, ahead=("exactly.txt", "vendored", ".harness", "missing.txt"))
    assert [small.read(rel) for rel in ("vendored", ".harness", "missing.txt")] == [None, None, None]
    assert small.read("exactly.txt") == b"y" * 32
    assert len(started) == 2  # every read above answered from the two processes that found HEAD


def test_a_file_read_ahead_over_the_cap_is_refused_and_what_follows_it_read_as_before(files, monkeypatch):
    monkeypatch.setattr(CommitFiles.__init__, "__defaults__", (32,))
    head = CommitFiles.of_head(files.root, ahead=("exactly.txt", "big.txt", "app.py"))
    assert head is not None and head.cap == 32
    with pytest.raises(HarnessError, match=r"big\.txt in HEAD is larger than 32 bytes: refused unread"):
        head.read("big.txt")
    # Its bytes are not read past (the process left at them is ended): what follows is read in another.
    assert head.read("app.py") == b"def answer():\n    return 42\n"
    assert head.read("exactly.txt") == b"y" * 32


def test_an_unborn_head_has_no_files(tmp_path):
    git(tmp_path, "init", "-q")
    assert CommitFiles.of_head(tmp_path, ahead=(".harness/config.yaml",)) is None


# -- read 118: whether a file is there is the entry's mode, asked before its size -------------------------------

def _entry(repo, mode: str, data: bytes, rel: str) -> None:
    """An index entry of ``mode`` at ``rel`` naming a new blob holding ``data``, committed (no file on disk)."""
    oid = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=data, capture_output=True,
                         check=True).stdout.decode().strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{oid},{rel}")
    git(repo, "commit", "-qm", f"{rel} as {mode}", "--no-verify")


def _three_readers(repo, rel: str) -> list:
    """What ``rel`` reads as in HEAD through CommitFiles.read, the read-ahead with HEAD, and the gate's TreeSource."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource

    head = CommitFiles.of_head(repo)
    g = Git(repo)
    return [head.read(rel), CommitFiles.of_head(repo, ahead=(rel,)).read(rel),
            TreeSource(g, g.commit_tree(head.commit), "HEAD", rev=head.commit).read(rel)]


def test_a_submodule_entry_naming_a_blob_is_no_file_for_any_reader(files):
    # Read 118's F-B: a gitlink at .harness/gate.yaml naming a loosened policy's blob was read as HEAD's policy by
    # status, where the gate reads no file there.
    _entry(files.root, "160000", b"gate:\n  loosened: true\n", ".harness/gate.yaml")
    assert _three_readers(files.root, ".harness/gate.yaml") == [None, None, None]


def test_a_link_over_the_cap_is_no_file_not_a_refusal(files, monkeypatch):
    # Read 118's F-A: the size was checked before the kind, so a link whose blob is over the cap was refused.
    _entry(files.root, "120000", b"t" * 64, ".harness/gate.yaml")
    monkeypatch.setattr(CommitFiles.__init__, "__defaults__", (32,))
    assert _three_readers(files.root, ".harness/gate.yaml") == [None, None, None]


def test_a_file_where_a_folder_is_asked_is_no_file_however_large(files, monkeypatch):
    # Read 118: the folder's listing was capped before its kind was known; a file there holds no entries. Every
    # listing on the way is capped (the root's too): the cap is the root's size, the file far over it.
    from harness.gitio import fast_path

    _entry(files.root, "100644", b"z" * 100_000, "huge.txt")
    root = subprocess.run(["git", "cat-file", "tree", "HEAD^{tree}"], cwd=files.root, capture_output=True, check=True)
    monkeypatch.setattr(fast_path, "TREE_CAP", len(root.stdout))
    assert CommitFiles.of_head(files.root).read("huge.txt/inside") is None
    assert CommitFiles.of_head(files.root, ahead=("huge.txt/inside",)).read("huge.txt/inside") is None


# -- read 119: a mode is read as git reads it, by its type bits -------------------------------------------------

def _head_with_listing(repo, entries: list[tuple[bytes, bytes, bytes]]) -> None:
    """HEAD moved to a commit whose root folder lists ``entries`` (mode, name, content) exactly as given, written
    as a raw object (no check of git's own): what git plumbing lets anyone commit."""
    def put(kind: str, data: bytes) -> bytes:
        out = subprocess.run(["git", "hash-object", "-w", "--literally", "-t", kind, "--stdin"], cwd=repo,
                             input=data, capture_output=True, check=True).stdout.strip()
        return bytes.fromhex(out.decode())
    listing = b"".join(mode + b" " + name + b"\0" + put("blob", data) for mode, name, data in entries)
    tree = put("tree", listing).hex()
    commit = git(repo, "commit-tree", tree, "-m", "a raw listing").stdout.strip()
    git(repo, "update-ref", "HEAD", commit)


def test_a_mode_whose_type_bits_say_submodule_is_refused(repo):
    # 100160000: git masks the type bits (0o160000, a submodule's entry), libgit2 cannot parse it (the gate died);
    # status read the blob as HEAD's policy. Neither reading is taken: the listing is refused, by every reader.
    _head_with_listing(repo, [(b"100160000", b"gate.yaml", b"loosened\n")])
    assert "160000 commit" in git(repo, "ls-tree", "HEAD").stdout
    with pytest.raises(HarnessError, match=r"the entry 'gate\.yaml' has mode '100160000', which git and libgit2 do not read alike"):
        CommitFiles.of_head(repo).read("gate.yaml")
    with pytest.raises(HarnessError, match="100160000"):
        CommitFiles.of_head(repo, ahead=("gate.yaml",)).read("gate.yaml")


def test_a_zero_padded_file_mode_is_a_file_as_git_reads_it(repo):
    _head_with_listing(repo, [(b"0100644", b"gate.yaml", b"policy\n")])
    assert git(repo, "show", "HEAD:gate.yaml").stdout == "policy\n"
    assert CommitFiles.of_head(repo).read("gate.yaml") == b"policy\n"
    assert CommitFiles.of_head(repo, ahead=("gate.yaml",)).read("gate.yaml") == b"policy\n"


def test_a_folder_listing_over_its_cap_is_refused_not_read(files, monkeypatch):
    # The refusal the mode check adds: a folder whose listing is over TREE_CAP is not read into memory to find a mode.
    from harness.gitio import fast_path

    monkeypatch.setattr(fast_path, "TREE_CAP", 8)
    with pytest.raises(HarnessError, match=r"the root folder in HEAD lists more than 8 bytes of entries: refused unread"):
        CommitFiles.of_head(files.root).read(".harness/config.yaml")
    head = CommitFiles.of_head(files.root, ahead=(".harness/config.yaml",))  # found; its files refused when read
    with pytest.raises(HarnessError, match=r"lists more than 8 bytes"):
        head.read(".harness/config.yaml")


def test_a_head_commit_over_any_cap_is_head_not_an_unborn_branch(files, monkeypatch):
    # Read 120's F-0436: HEAD's commit was read whole under the folder-listing cap; one over it (a long message,
    # `git commit-tree -F`) made of_head answer None, an unborn branch, and status judged gate.yaml against init's
    # defaults. Only the commit's first line (its root folder) is needed: the rest is read past, not kept.
    from harness.gitio import fast_path

    message = files.root / "message.txt"
    message.write_bytes(b"m" * 5000 + b"\n")
    tree = git(files.root, "rev-parse", "HEAD^{tree}").stdout.strip()
    commit = git(files.root, "commit-tree", "-p", "HEAD", "-F", str(message), tree).stdout.strip()
    git(files.root, "update-ref", "HEAD", commit)
    monkeypatch.setattr(fast_path, "LISTING_CAP", 1000)
    monkeypatch.setattr(fast_path, "TREE_CAP", 1000)
    head = CommitFiles.of_head(files.root, ahead=(".harness/config.yaml",))
    assert head is not None and head.commit == commit
    assert head.read(".harness/config.yaml") == b"version: 1\n" and head.read("app.py")
