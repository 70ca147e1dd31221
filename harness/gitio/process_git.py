"""A repository read through `git` processes alone: what recording evidence asks of git, without
loading pygit2.

Importing pygit2 costs ~90 ms (its C extension, its enums, the TLS bundle its settings load),
about five times a bare interpreter's start, and `harness evidence` is what an agent runs after
every edit. The few questions a recording asks (where the repository is, HEAD, the working
tree's source tree, whether it is HEAD's, whether a path is ignored) are about ten short git
processes, ~2 ms each.

:class:`ProcessGit` is a :class:`~harness.gitio.worktree.Worktree`: the same source-tree code,
with the methods that read objects through libgit2 answered by git. A tree without its
``.harness`` entry is made from the raw tree as libgit2's tree builder makes it (its entries as
stored, each mode written as ``%o``), so the ids are pygit2's even for a tree old git wrote with
non-canonical modes; names are bytes throughout (they need not be UTF-8). Anything else it
inherits still works, through a pygit2 repository opened the first time it is touched.
tests/test_process_git_matches_pygit2.py holds the answers equal to :class:`~harness.gitio.git.Git`'s,
with two deliberate differences: ignore rules are git's own (``git check-ignore``: what ``git add``
goes by, where libgit2 reads a few patterns otherwise), and a HEAD that names no readable commit
is refused rather than read (pygit2 answered a tag's id, or failed later on a missing commit).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from harness.errors import HarnessError
from harness.gitio.environment import HARNESS_DIR, own_env
from harness.gitio.worktree import Worktree, _resolved

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # sha1's; a sha256 repository is refused on opening
_HARNESS = HARNESS_DIR.encode()


class ProcessGit(Worktree):
    def __init__(self, root: Path) -> None:  # not super().__init__: that opens pygit2, the cost avoided here
        self.root = Path(root)
        # One process for where the repository is, its working tree and HEAD (none: exit 1).
        where = self.run_bytes(["rev-parse", "--absolute-git-dir", "--is-bare-repository", "--show-object-format",
                                "--show-toplevel", "--verify", "-q", "HEAD^{commit}"], own_env(), check=False)
        lines = where.split(b"\n")[:-1]
        if len(lines) not in (4, 5) or lines[2] != b"sha1":
            Worktree.__init__(self, root)  # not a repository, a bare or sha256 one: pygit2's own words
            return
        self._git_dir, self._bare, self._top = Path(os.fsdecode(lines[0])), lines[1] == b"true", os.fsdecode(lines[3])
        if len(lines) == 4:
            self._refuse_a_head_naming_no_commit()
        self._head_at_open = lines[4].decode() if len(lines) == 5 else None

    def _refuse_a_head_naming_no_commit(self) -> None:
        """HarnessError when HEAD names an object git cannot read as a commit (not on an unborn branch)."""
        named = self.run_bytes(["rev-parse", "-q", "--verify", "HEAD"], own_env(), check=False).strip()
        if named:
            raise HarnessError(f"HEAD names {named.decode()}, which git cannot read as a commit (its object is "
                               "missing or is no commit): the source the run is evidence about has no commit to name",
                               hint="repair the repository (`git fsck`; fetch the missing objects) or check out a branch")

    @functools.cached_property
    def repo(self) -> Any:  # for the inherited methods this class does not answer
        from harness.gitio.lazy_pygit2 import pygit2

        return pygit2.Repository(str(self.root))

    @property
    def git_dir(self) -> Path:
        return self._git_dir if "_git_dir" in self.__dict__ else super().git_dir

    @property
    def is_bare(self) -> bool:
        return self._bare if "_bare" in self.__dict__ else super().is_bare

    def head(self) -> str | None:
        """HEAD's commit id, or None on an unborn branch: read when opened the first time it is
        asked (a recording asks once, before its command starts), from git after that."""
        if "_head_at_open" in self.__dict__:
            return self.__dict__.pop("_head_at_open")
        found = self.run_bytes(["rev-parse", "-q", "--verify", "HEAD^{commit}"], own_env(), check=False).strip()
        if not found:
            self._refuse_a_head_naming_no_commit()
        return found.decode() or None

    def _toplevel(self, env: dict[str, str]) -> str | None:
        if "_top" in self.__dict__ and env == own_env():
            return _resolved(self.root, self._top)
        return super()._toplevel(env)

    def source_tree(self, rev: str) -> str:
        """``rev``'s tree without its top-level ``.harness`` entry."""
        return self._without_harness(f"{rev}^{{commit}}^{{tree}}", write=True)

    def strip_harness(self, tree_id: str) -> str:
        return self._without_harness(tree_id, write=True)

    def differs_from_commit(self, tree: str, head: str | None) -> bool:
        """Whether source tree ``tree`` is not ``head``'s, HEAD's source tree computed, not written."""
        if head is None:
            return tree != EMPTY_TREE
        return self._without_harness(f"{head}^{{tree}}", write=False) != tree

    @contextlib.contextmanager
    def differs_from_commit_started(self, head: str | None) -> Iterator[Callable[[str], bool]]:
        """``differs(tree)``: :meth:`differs_from_commit` of ``tree`` and ``head``, its git process started
        now, so that it runs beside what the caller does meanwhile (measuring the source tree)."""
        if head is None:
            yield lambda tree: tree != EMPTY_TREE
            return
        with self.started(["cat-file", "tree", f"{head}^{{tree}}"], own_env()) as raw:
            yield lambda tree: self._harness_removed(raw(), write=False) != tree

    def _without_harness(self, treeish: str, write: bool) -> str:
        """The id of ``treeish``'s tree with its ``.harness`` entry removed as libgit2's tree builder
        removes it; the tree is written to the object store only when ``write`` and it is new."""
        return self._harness_removed(self.run_bytes(["cat-file", "tree", treeish], own_env()), write)

    def _harness_removed(self, raw: bytes, write: bool) -> str:
        """:meth:`_without_harness` of the raw tree object ``raw``."""
        entries = _entries(raw)
        kept = [entry for entry in entries if entry[1] != _HARNESS]
        if len(kept) == len(entries):
            return _tree_id(raw)  # unchanged: the tree itself, its id as stored
        body = b"".join(b"%o %s\0%s" % (int(mode, 8), name, oid) for mode, name, oid in kept)
        if not write:
            return _tree_id(body)
        if not body:
            return EMPTY_TREE
        return self.run_bytes(["hash-object", "-t", "tree", "-w", "--literally", "--stdin"], own_env(),
                              input=body).decode().strip()

    def empty_tree(self) -> str:
        return EMPTY_TREE

    def is_ignored(self, rel: str) -> bool:
        """Whether git's ignore rules match ``rel``, tracked or not (what `git add -A` goes by)."""
        proc = self.run_proc(["check-ignore", "-q", "--no-index", "--", rel], own_env())
        return proc.returncode == 0

    def config_get(self, key: str) -> str | None:
        proc = self.run_proc(["config", "--get", key], own_env())
        return proc.stdout.rstrip("\n") if proc.returncode == 0 else None


def _entries(raw: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """A raw tree object's entries as stored: (mode, name, 20-byte id)."""
    out, i = [], 0
    try:
        while i < len(raw):
            space = raw.index(b" ", i)
            nul = raw.index(b"\0", space)
            out.append((raw[i:space], raw[space + 1:nul], raw[nul + 1:nul + 21]))
            i = nul + 21
            int(out[-1][0], 8)
    except ValueError:
        raise HarnessError("git printed a tree this harness cannot read (a damaged repository?)",
                           hint="run `git fsck` in the repository") from None
    return out


def _tree_id(body: bytes) -> str:
    """The sha1 id git gives a tree object of ``body``."""
    try:  # Python's own: hashlib's OpenSSL binding costs more to load than this hashing
        sha1 = __import__("_sha1").sha1
    except ImportError:  # pragma: no cover - a build without it
        from hashlib import sha1
    return str(sha1(b"tree %d\0%s" % (len(body), body)).hexdigest())
