"""Reading ``.harness/`` files from a git tree: a commit's, or the index's (:func:`index_tree`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from harness.errors import HarnessError
from harness.gitio import blob_memo
from harness.gitio.environment import git_env
from harness.gitio.git import Git
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.trees import changed_paths_in


class TreeSource:
    """Read `.harness/` files from a git tree (a commit's, or the index's)."""

    def __init__(self, git: Git, tree_id: str, label: str, rev: str | None = None, of_index: bool = False) -> None:
        self.git = git
        self.of_index = of_index  # the index's tree: what the next commit, on HEAD, holds
        self.repo = git.repo
        self.tree = git.repo[tree_id]
        self.label = label
        self.valid_cache = git.valid_cache  # the repository's, as the hook that opened it named one
        self.rev = rev  # the commit this tree is from, for hints ("git checkout REV -- PATH")
        # Folder objects by path: a lookup by full path makes libgit2 re-parse every folder on
        # the way (the tasks folder has one entry per task), so N lookups would cost N².
        self._objects: dict[str, Any] = {}

    def at(self, commit: str) -> TreeSource | None:
        """The same repository's files as ``commit`` has them (None: not a commit here)."""
        return of_commit(self.git, commit)

    def committed_onto(self) -> TreeSource | None:
        """For the index's tree, the files of the commit the next commit is made on, HEAD's, whose config.yaml the commit
        hook compares the index's with; None for a commit's tree (its change was judged against its parents when it
        was committed) and on an unborn branch."""
        head = self.git.head() if self.of_index else None
        return TreeSource(self.git, self.git.commit_tree(head), "HEAD", rev=head) if head else None

    def shallow(self) -> bool:
        """Whether this source's repository is a shallow clone."""
        from harness.gitio.adoption import is_shallow

        return is_shallow(self.git.root)

    def on_its_line(self, commit: str) -> bool:
        """Whether ``commit`` is in this tree's commit's history (HEAD's for a tree of no commit)."""
        from harness.gitio.adoption import descends

        return descends(self.git.root, self.rev or "HEAD", commit)

    def config_steps(self, since: str) -> tuple[str, list[tuple[str, str]]] | None:
        """This tree's commit (HEAD for a tree of no commit: the index), and the commits of its first-parent line after
        ``since`` that changed config.yaml, each with the parent it changed it from (None: ``since`` is not on it)."""
        from harness.gitio.config_history import steps

        return steps(self.git.root, self.rev or "HEAD", since)

    def adoption(self) -> TreeSource | None:
        """The files of the earliest commit of this source's history that holds `.harness/config.yaml` (None: none does, and
        this is the change that adopts the harness)."""
        from harness.gitio.adoption import first_holding

        found = first_holding(self.git.root, self.rev or "HEAD")
        return self.at(found) if found else None

    def repository_id(self) -> str | None:
        """The repository this tree's commit belongs to (:meth:`Git.repository_id`); None for a
        tree that is no commit's (the index), or in a shallow clone (whose roots are its boundary)."""
        return self.git.repository_id(self.rev) if self.rev and not self.git.is_shallow() else None

    def changed_paths(self, old_tree: str, new_tree: str, limit: int = 10) -> tuple[list[str], int]:
        return changed_paths_in(self.repo, old_tree, new_tree, limit)

    def since_tree(self, tree_id: str, paths: list[str]) -> tuple[list[str], list[str]]:
        """Of ``paths``: (those whose working-tree version is what ``tree_id`` holds, those whose
        working-tree version differs from it too). Untracked-not-ignored files count, as the gate
        counts them; only asked when a commit is refused, so the work tree is measured whole."""
        work = self.git.worktree_source_tree()
        differs = set(changed_paths_in(self.repo, tree_id, work, 1 << 30)[0])
        return [p for p in paths if p not in differs], [p for p in paths if p in differs]

    def head_tree(self) -> str | None:
        """HEAD's tree (None on an unborn branch)."""
        head = self.git.head()
        return self.git.commit_tree(head) if head else None

    def same_in(self, tree_a: str, tree_b: str | None, path: str) -> bool:
        """Whether ``path`` is the same file (or as absent) in both trees (``tree_b`` None: the empty tree)."""
        def entry(tree_id: str | None) -> str | None:
            if tree_id is None:
                return None
            try:
                return str(self.repo[tree_id][path].id)
            except (KeyError, ValueError):
                return None
        return entry(tree_a) == entry(tree_b)

    def special_entries(self, rel: str, known: Callable[[str, str], bool] | None = None) -> list[str]:
        """Paths under ``rel`` that are symlinks or submodules: the harness reads neither.

        ``known(path, tree id)`` says a folder was already judged (a parent holds the very same
        tree): it is not walked again, so the cost follows what changed, not the store's size.
        """
        top = self._entry(rel)
        out, stack = [], [(rel, top)] if isinstance(top, pygit2.Tree) else []
        while stack:
            base, tree = stack.pop()
            for entry in tree:
                path = f"{base}/{entry.name}"
                if entry.filemode in (pygit2.enums.FileMode.LINK, pygit2.enums.FileMode.COMMIT):
                    out.append(path)
                elif isinstance(entry, pygit2.Tree) and not (known and known(path, str(entry.id))):
                    stack.append((path, entry))
        return sorted(out)

    def changes_since(self, old: TreeSource, rel: str) -> list[tuple[str, int]]:
        """(path under ``rel``, mode in this tree, 0 if deleted) of every file that differs from
        ``old``'s ``rel``: libgit2 walks both trees and skips folders whose ids are equal, so the
        cost follows the change, not the number of folders."""
        ours, theirs = self._entry(rel), old._entry(rel)
        if not isinstance(ours, pygit2.Tree) or not isinstance(theirs, pygit2.Tree):
            empty = self.repo[self.repo.TreeBuilder().write()]
            ours, theirs = ours if isinstance(ours, pygit2.Tree) else empty, \
                theirs if isinstance(theirs, pygit2.Tree) else empty
        before, after = theirs, ours
        out = []
        for delta in before.diff_to_tree(after).deltas:
            deleted = delta.status == pygit2.enums.DeltaStatus.DELETED
            out.append((delta.old_file.path if deleted else delta.new_file.path, 0 if deleted else delta.new_file.mode))
        return out

    @staticmethod
    def is_special(mode: int) -> bool:
        """A symlink or a submodule: what the harness never reads."""
        return mode in (pygit2.enums.FileMode.LINK, pygit2.enums.FileMode.COMMIT)

    def entries(self, rel: str) -> dict[str, str]:
        """name -> object id of every entry of the folder ``rel``, in one listing (empty if absent)."""
        obj = self._entry(rel)
        return {e.name: str(e.id) for e in obj} if isinstance(obj, pygit2.Tree) else {}

    def _entry(self, rel: str) -> Any:  # a pygit2 object or None
        if not rel:
            return self.tree
        if rel in self._objects:
            return self._objects[rel]
        parent, _, name = rel.rpartition("/")
        folder = self._entry(parent)
        obj = None
        if isinstance(folder, pygit2.Tree) and name:
            try:
                obj = folder[name]
            except KeyError:
                obj = None
        self._objects[rel] = obj
        return obj

    def read(self, rel: str) -> bytes | None:
        obj = self._entry(rel)
        if not isinstance(obj, pygit2.Blob) or obj.filemode == pygit2.enums.FileMode.LINK:
            return None  # a symlink's blob is its target's name, not the file's content
        from harness.core import file_caps as bounded  # the caps alone: the file reader is the store's

        kind = bounded.kind_of(rel)
        data = blob_memo.kept(obj.id)
        try:
            size = obj.size if data is None else len(data)
        except (KeyError, pygit2.GitError):  # the tree names a blob this clone does not hold
            raise HarnessError(f"{rel}: its content ({str(obj.id)[:12]}) is not in this clone ({self.label}): a "
                               "partial clone (--filter)? fetch it: `git fetch --refetch` or a full clone") from None
        if size > bounded.CAPS[kind]:  # before its bytes are copied into Python (libgit2 inflated it to size it)
            raise HarnessError(f"{rel}: {size} bytes in {self.label}, over the "
                               f"{bounded.CAPS[kind] // bounded.MiB} MiB limit for a {kind} file (refused)")
        return data if data is not None else blob_memo.keep(obj.id, obj.data)

    def read_or_none(self, rel: str) -> bytes | None:
        """:meth:`read`, or None where the object cannot be read as stored (its content does not hash to its id)
        or is over its cap: for a look that decides nothing itself (a re-run reports such a commit on its own)."""
        try:
            return self.read(rel)
        except (pygit2.GitError, HarnessError, KeyError, ValueError):
            return None

    def listdir(self, rel: str) -> list[str]:
        obj = self._entry(rel)
        return sorted(str(e.name) for e in obj) if isinstance(obj, pygit2.Tree) else []

    def oid(self, rel: str) -> str | None:
        obj = self._entry(rel)
        return str(obj.id) if obj is not None else None

    def kind(self, rel: str) -> str | None:
        """What the tree records at ``rel`` (not the root): "folder", "file", "symlink" or "submodule" (a
        gitlink, whose id may name any object, a tree of this repository's included), None when absent."""
        obj = self._entry(rel) if rel else None
        if obj is None:
            return None
        modes = pygit2.enums.FileMode  # read here: pygit2 loads on first use, not when this module is imported
        return {modes.TREE: "folder", modes.LINK: "symlink", modes.COMMIT: "submodule"}.get(obj.filemode, "file")


def index_tree(git: Git, index_file: str | None = None) -> str:
    """The full tree (``.harness`` included) of the index git is committing.

    `git write-tree` reuses the index's cached trees, so only changed folders are hashed.
    """
    path = index_file or os.environ.get("GIT_INDEX_FILE") or os.path.join(git.repo.path, "index")
    if not os.path.isabs(path):
        path = str(git.root / path)
    if not os.path.exists(path):
        return git.empty_tree()
    return git.run(["write-tree"], git_env({"GIT_INDEX_FILE": path})).strip()


def of_commit(git: Git, commit: str) -> TreeSource | None:
    """The files of ``commit`` in ``git``'s repository (None: not a commit there)."""
    try:
        obj = git.repo[commit].peel(pygit2.Commit)
    except (KeyError, ValueError, TypeError, pygit2.GitError, pygit2.InvalidSpecError):
        return None
    return TreeSource(git, str(obj.tree.id), f"commit {commit[:12]}", rev=commit)
