"""Reading ``.harness/`` files from a git tree: a commit's, or the index's (:func:`index_tree`)."""

from __future__ import annotations

import os
from collections.abc import Callable

from harness import context
from harness.core import tree_listing
from harness.core.tree_listing import FILE, FOLDER, Entry
from harness.errors import HarnessError
from harness.gitio import blob_memo
from harness.gitio.environment import git_env
from harness.gitio.git import Git
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.trees import changed_paths_in

LISTINGS_KEPT = 250_000  # entries of parsed listings a process keeps (~50 MB at most)


class TreeSource:
    """Read `.harness/` files from a git tree (a commit's, or the index's)."""

    def __init__(self, git: Git, tree_id: str, label: str, rev: str | None = None, of_index: bool = False) -> None:
        self.git = git
        self.of_index = of_index  # the index's tree: what the next commit, on HEAD, holds
        self.repo = git.repo
        self.tree_id = tree_id
        self.label = label
        self.valid_cache = git.valid_cache  # the repository's, as the hook that opened it named one
        self.rev = rev  # the commit this tree is from, for hints ("git checkout REV -- PATH")
        # Entries by path: a lookup by full path would read every folder on the way again.
        self._entries: dict[str, Entry | None] = {}

    def at(self, commit: str) -> TreeSource | None:
        """The same repository's files as ``commit`` has them (None: not a commit here)."""
        return of_commit(self.git, commit)

    def committed_onto(self) -> TreeSource | None:
        """For the index's tree, the files of the commit the next commit is made on, HEAD's, whose config.yaml the commit
        hook compares the index's with; None for a commit's tree (its change was judged against its parents when it
        was committed) and on an unborn branch."""
        return of_head(self.git) if self.of_index else None

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
            found = tree_listing.lookup(self._listing, tree_id, path) if tree_id is not None else None
            return found.oid if found is not None else None
        return entry(tree_a) == entry(tree_b)

    def special_entries(self, rel: str, known: Callable[[str, str], bool] | None = None) -> list[str]:
        """Paths under ``rel`` that are symlinks or submodules: the harness reads neither.

        ``known(path, tree id)`` says a folder was already judged (a parent holds the very same
        tree): it is not walked again, so the cost follows what changed, not the store's size.
        """
        top = self._entry(rel)
        out, stack = [], [(rel, top.oid)] if top is not None and top.kind == FOLDER else []
        while stack:
            base, tree = stack.pop()
            for name, entry in (self._listing(tree, base) or {}).items():
                path = f"{base}/{name}"
                tree_listing.reached(name, entry, base, self.label)
                if self.is_special(entry.mode):
                    out.append(path)
                elif entry.kind == FOLDER and not (known and known(path, entry.oid)):
                    stack.append((path, entry.oid))
        return sorted(out)

    def changes_since(self, old: TreeSource, rel: str) -> list[tuple[str, int]]:
        """(path under ``rel``, mode in this tree, 0 if deleted) of every file that differs from
        ``old``'s ``rel``: folders whose ids are equal are not opened, so the cost follows the change,
        not the number of folders. Both listings are read as :meth:`read` reads them."""
        def folder(source: TreeSource) -> str | None:
            found = source._entry(rel)
            return found.oid if found is not None and found.kind == FOLDER else None
        return tree_listing.changes(lambda oid, path: self._listing(oid, f"{rel}/{path}" if path else rel),
                                    folder(old), folder(self), label=self.label, under=rel)

    @staticmethod
    def is_special(mode: int) -> bool:
        """A symlink or a submodule: what the harness never reads."""
        return mode in (0o120000, 0o160000)

    def entries(self, rel: str) -> dict[str, str]:
        """name -> object id of every entry of the folder ``rel``, in one listing (empty if absent)."""
        obj = self._entry(rel)
        listing = self._listing(obj.oid, rel) if obj is not None and obj.kind == FOLDER else None
        return {name: entry.oid for name, entry in (listing or {}).items()}

    def _entry(self, rel: str) -> Entry | None:
        if rel not in self._entries:
            parent, _, name = rel.rpartition("/")
            folder = self._entry(parent) if rel else None
            if not rel:
                found: Entry | None = Entry(FOLDER, self.tree_id, 0o040000)
            elif folder is None or folder.kind != FOLDER or not name:
                found = None
            else:
                # read 121: an ambiguous entry is refused where it is reached
                found = tree_listing.reached(name, (self._listing(folder.oid, parent) or {}).get(name), parent,
                                             self.label)
            self._entries[rel] = found
        return self._entries[rel]

    def _listing(self, oid: str, rel: str) -> dict[str, Entry] | None:
        """The folder ``oid`` (at ``rel``) parsed (None: that object is no folder): one parser for this and
        :class:`harness.gitio.fast_path.CommitFiles`, so the gate and status read one commit alike (read 119)."""
        memo = context.process()
        if oid in memo.listings:
            return memo.listings[oid]
        try:
            kind, raw = self.repo.read(oid)
        except (KeyError, ValueError):
            raise HarnessError(f"{rel or 'the root folder'} ({oid[:12]}) is not in this clone ({self.label}): a "
                               "partial or shallow clone? fetch it") from None
        if kind != pygit2.enums.ObjectType.TREE:
            return None
        if len(raw) > tree_listing.LISTING_CAP:
            raise HarnessError(f"{rel or 'the root folder'} in {self.label} lists more than "
                               f"{tree_listing.LISTING_CAP} bytes of entries: refused")
        listing = tree_listing.parse(raw, len(oid) // 2, f"{rel or 'the root folder'} in {self.label}")
        if memo.listed_entries > LISTINGS_KEPT:  # bounded: a long walk starts over, it does not grow without end
            memo.listings.clear()
            memo.listed_entries = 0
        memo.listings[oid] = listing
        memo.listed_entries += len(listing) + 1
        return listing

    def read(self, rel: str) -> bytes | None:
        entry = self._entry(rel)
        if entry is None or entry.kind != FILE:
            return None  # a symlink's blob is its target's name, not the file's content; a submodule's names anything
        from harness.core import file_caps as bounded  # the caps alone: the file reader is the store's

        kind = bounded.kind_of(rel)
        data = blob_memo.kept(entry.oid)
        if data is None:
            try:
                obj = self.repo[entry.oid]
            except (KeyError, ValueError):  # the tree names a blob this clone does not hold
                raise HarnessError(f"{rel}: its content ({entry.oid[:12]}) is not in this clone ({self.label}): a "
                                   "partial clone (--filter)? fetch it: `git fetch --refetch` or a full clone") from None
            if not isinstance(obj, pygit2.Blob):  # read 119: a tree's "size" was a heap address
                raise HarnessError(f"{rel} in {self.label}: a file's entry names a {obj.type_str}, not a blob: "
                                   "refused (git cannot check it out)")
        size = obj.size if data is None else len(data)
        if size > bounded.CAPS[kind]:  # before its bytes are copied into Python (libgit2 inflated it to size it)
            raise HarnessError(f"{rel}: {size} bytes in {self.label}, over the "
                               f"{bounded.CAPS[kind] // bounded.MiB} MiB limit for a {kind} file (refused)")
        return data if data is not None else blob_memo.keep(entry.oid, obj.data)

    def read_or_none(self, rel: str) -> bytes | None:
        """:meth:`read`, or None where the object cannot be read as stored (its content does not hash to its id)
        or is over its cap: for a look that decides nothing itself (a re-run reports such a commit on its own)."""
        try:
            return self.read(rel)
        except (pygit2.GitError, HarnessError, KeyError, ValueError):
            return None

    def listdir(self, rel: str) -> list[str]:
        return sorted(self.entries(rel))

    def oid(self, rel: str) -> str | None:
        found = self._entry(rel)
        return found.oid if found is not None else None

    def kind(self, rel: str) -> str | None:
        """What the tree records at ``rel`` (not the root): "folder", "file", "symlink" or "submodule" (a
        gitlink, whose id may name any object, a tree of this repository's included), None when absent."""
        found = self._entry(rel) if rel else None
        return found.kind if found is not None else None


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


def of_head(git: Git) -> TreeSource | None:
    """HEAD's files, as the commit HEAD names now (None on an unborn branch): the committed policy and
    configuration that the gate, `init --restore-gate` and the approvals compare the working files with."""
    head = git.head()
    if not head:
        return None
    try:
        return TreeSource(git, git.commit_tree(head), "HEAD", rev=head)
    except (KeyError, ValueError, TypeError, pygit2.GitError, pygit2.InvalidSpecError):  # read 124's F-0444
        raise HarnessError(f"HEAD names {head}, which is not a commit this repository can read (a tree, a tag of "
                           "one, or a commit written by hand)", hint="`git cat-file -t HEAD` says what it is; "
                           "`git checkout BRANCH` puts HEAD back on a branch") from None


def of_commit(git: Git, commit: str) -> TreeSource | None:
    """The files of ``commit`` in ``git``'s repository (None: not a commit there)."""
    try:
        obj = git.repo[commit].peel(pygit2.Commit)
    except (KeyError, ValueError, TypeError, pygit2.GitError, pygit2.InvalidSpecError):
        return None
    return TreeSource(git, str(obj.tree.id), f"commit {commit[:12]}", rev=commit)
