"""Commit trees and source trees: a commit's tree with the top-level ``.harness`` entry removed."""

from __future__ import annotations

from harness.gitio.environment import HARNESS_DIR
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.repository import Repository

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any


class Trees(Repository):
    def commit_tree(self, rev: str) -> str:
        return str(self.repo.revparse_single(rev).peel(pygit2.Commit).tree_id)

    def commit_tree_if_held(self, rev: str) -> str | None:
        """:meth:`commit_tree`, or None when this clone does not hold the commit (a shallow clone's boundary,
        which libgit2 does not see from a linked worktree, names parents the clone lacks)."""
        try:
            return self.commit_tree(rev)
        except (KeyError, ValueError, pygit2.GitError):
            return None

    def strip_harness(self, tree_id: str) -> str:
        tree = self.repo[tree_id]
        if HARNESS_DIR not in tree:
            return str(tree.id)
        builder = self.repo.TreeBuilder(tree)
        builder.remove(HARNESS_DIR)
        return str(builder.write())

    def source_tree(self, rev: str) -> str:
        return self.strip_harness(self.commit_tree(rev))

    def empty_tree(self) -> str:
        return str(self.repo.TreeBuilder().write())

    def changed_paths(self, old_tree: str, new_tree: str, limit: int = 10) -> tuple[list[str], int]:
        """Up to ``limit`` paths that differ between two trees, and how many differ in all."""
        return changed_paths_in(self.repo, old_tree, new_tree, limit)

    def harness_entry_id(self, tree_id: str) -> str | None:
        """The id of the `.harness` folder the root listing of ``tree_id`` holds (None: none, an entry of another kind,
        or a listing the readers refuse). A folder alone: a submodule's entry may name any tree, and no check ever
        looked into one through it (read 123's F-0442)."""
        from harness.core.tree_listing import FOLDER, ListingRefused, parse

        kind, raw = self.repo.read(tree_id)
        try:
            entry = parse(raw, len(tree_id) // 2, "(root)").get(HARNESS_DIR)
        except ListingRefused:
            return None
        return entry.oid if entry is not None and entry.kind == FOLDER and kind == pygit2.enums.ObjectType.TREE else None

    def malformed_entries(self, tree_id: str, inherited: frozenset[str] = frozenset()) -> list[str]:
        """What git's fsck would reject in ``tree_id``'s root and, recursively, its ``.harness``
        folder: an entry name twice (libgit2's lookup finds one of them, git's checkout writes the
        other, so a check would judge one file and the work tree hold another), entries out of
        git's order (a lookup by name then misses one that checkout writes), and names no checkout
        can write. Checked here, not left to the server's receive.fsckObjects, which may be off.
        Each tree id is checked once per process: a parent's unchanged folders cost nothing. A root is
        remembered as checked as a root (`ID:root`): its folders but .harness were not looked into, so
        the same tree met as a .harness folder is checked whole (#28's task F-0054). A `.harness` folder whose id is
        in ``inherited`` (a parent's, left as it was) is not looked into: it was its commit's to answer for, and the
        commit hook's fast path, which compares the entry alone, answers so too (read 122's F-0440)."""
        from harness.core.tree_listing import AMBIGUOUS, FOLDER, ListingRefused, ambiguity, parse

        sound: set[str] = self.__dict__.setdefault("_sound_trees", set())
        out: list[str] = []
        skipped: list[str] = []

        def sound_below(path: str, oid: str) -> bool:
            # A folder is remembered as sound with everything below it that is checked, never on its own
            # entries alone: a parent's tree met again (a child commit is judged against it) is judged whole.
            key = oid if path else f"{oid}:root"
            if oid in sound or key in sound:
                return True
            kind, raw = self.repo.read(oid)
            if kind != pygit2.enums.ObjectType.TREE:
                return True  # a folder's entry naming no folder: the readers find nothing there
            try:  # the readers' own parser (harness.core.tree_listing): what it refuses, no check reads
                listing = parse(raw, len(oid) // 2, path or "(root)")
            except ListingRefused as refused:
                out.extend(f"{path or '(root)'}: {what}" for what in refused.defects)
                return False
            ok = True
            for name, entry in listing.items():
                if entry.kind == AMBIGUOUS and (path or name == HARNESS_DIR):  # one a reader of .harness meets
                    out.append(f"{path or '(root)'}: {ambiguity(name, entry)}")
                    ok = False
                if not path and name == HARNESS_DIR and entry.oid in inherited:
                    skipped.append(name)  # not remembered as sound: another commit's check looks into it
                    continue
                if entry.kind == FOLDER and (path or name == HARNESS_DIR):
                    ok = sound_below(f"{path}/{name}" if path else name, entry.oid) and ok
            if ok and not skipped:
                sound.add(key)
            return ok

        sound_below("", tree_id)
        return out


def changed_paths_in(repo: Any, old_tree: str, new_tree: str, limit: int) -> tuple[list[str], int]:
    """:meth:`Trees.changed_paths` on an open pygit2 repository (shared with the tree readers)."""
    try:
        old, new = repo[old_tree], repo[new_tree]
    except (KeyError, ValueError):
        return [], -1  # a tree from another clone: we know it differs, not how
    paths = [d.new_file.path or d.old_file.path for d in old.diff_to_tree(new).deltas]
    return paths[:limit], len(paths)
