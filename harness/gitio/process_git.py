"""A repository read through `git` processes alone: what recording evidence asks of git, without
loading pygit2.

Importing pygit2 costs ~90 ms (its C extension, its enums, the TLS bundle its settings load),
about five times a bare interpreter's start, and `harness evidence` is what an agent runs after
every edit. The few questions a recording asks (where the repository is, HEAD, the working
tree's source tree, whether a path is ignored) are a dozen short git processes, ~2 ms each.

:class:`ProcessGit` is a :class:`~harness.gitio.worktree.Worktree`: the same source-tree code,
with the methods that read objects through libgit2 answered by git. Anything else it inherits
still works, through a pygit2 repository opened the first time it is touched. Every answer
equals :class:`~harness.gitio.git.Git`'s (tests/test_process_git_matches_pygit2.py).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from harness.gitio.environment import HARNESS_DIR, own_env
from harness.gitio.worktree import Worktree, _resolved

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # sha1's; a sha256 repository is refused on opening


class ProcessGit(Worktree):
    def __init__(self, root: Path) -> None:  # not super().__init__: that opens pygit2, the cost avoided here
        self.root = Path(root)
        self._listings: dict[str, list[str]] = {}  # a source tree made here -> its root entries
        # One process for where the repository is, its working tree and HEAD (absent: unborn, exit 1).
        where = self.run_proc(["rev-parse", "--absolute-git-dir", "--is-bare-repository", "--show-object-format",
                               "--show-toplevel", "--verify", "-q", "HEAD^{commit}"], own_env())
        lines = where.stdout.split("\n")[:-1]
        if where.returncode not in (0, 1) or len(lines) != 4 + (where.returncode == 0) or lines[2] != "sha1":
            Worktree.__init__(self, root)  # not a repository, a bare or sha256 one: pygit2's own words
            return
        self._git_dir, self._bare, self._top = Path(lines[0]), lines[1] == "true", lines[3]
        self._head_at_open: str | None = lines[4] if len(lines) == 5 else None

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
        found = self.run(["rev-parse", "-q", "--verify", "HEAD^{commit}"], own_env(), check=False).strip()
        return found or None

    def _toplevel(self, env: dict[str, str]) -> str | None:
        if "_top" in self.__dict__ and env == own_env():
            return _resolved(self.root, self._top)
        return super()._toplevel(env)

    def differs_from_commit(self, tree: str, head: str | None) -> bool:
        """Whether source tree ``tree`` (made here) is not ``head``'s: its root entries compared with
        the commit's, without writing the commit's source tree (equal entries are an equal tree)."""
        kept = self._listings.get(tree)
        if head is None or kept is None:
            return super().differs_from_commit(tree, head)
        listing = self.run(["ls-tree", "-z", "--full-tree", f"{head}^{{commit}}"], own_env())
        return _without_harness(listing) != kept

    def source_tree(self, rev: str) -> str:
        """``rev``'s tree without its top-level ``.harness`` entry."""
        listing = self.run(["ls-tree", "-z", "--full-tree", f"{rev}^{{commit}}"], own_env())
        return self._tree_without_harness(listing)

    def strip_harness(self, tree_id: str) -> str:
        return self._tree_without_harness(self.run(["ls-tree", "-z", "--full-tree", tree_id], own_env()))

    def _tree_without_harness(self, listing: str) -> str:
        kept = _without_harness(listing)
        # --missing: the entries come from git's own listing, and a submodule's commit is never here
        tree = self.run(["mktree", "-z", "--missing"], own_env(), input="\0".join(kept) + "\0").strip() \
            if kept else EMPTY_TREE
        self._listings[tree] = kept
        return tree

    def empty_tree(self) -> str:
        return EMPTY_TREE

    def is_ignored(self, rel: str) -> bool:
        """Whether git's ignore rules match ``rel`` (tracked or not, as libgit2's path_is_ignored)."""
        proc = self.run_proc(["check-ignore", "-q", "--no-index", "--", rel], own_env())
        return proc.returncode == 0

    def config_get(self, key: str) -> str | None:
        proc = self.run_proc(["config", "--get", key], own_env())
        return proc.stdout.rstrip("\n") if proc.returncode == 0 else None


def _without_harness(listing: str) -> list[str]:
    """The entries of `git ls-tree -z` output but the top-level ``.harness``."""
    return [entry for entry in listing.split("\0") if entry and entry.split("\t", 1)[1] != HARNESS_DIR]

