"""Commit trees and source trees: a commit's tree with the top-level ``.harness`` entry removed."""

from __future__ import annotations

from typing import Any

from harness.gitio.environment import HARNESS_DIR
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.repository import Repository


class Trees(Repository):
    def commit_tree(self, rev: str) -> str:
        return str(self.repo.revparse_single(rev).peel(pygit2.Commit).tree_id)

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


def changed_paths_in(repo: Any, old_tree: str, new_tree: str, limit: int) -> tuple[list[str], int]:
    """:meth:`Trees.changed_paths` on an open pygit2 repository (shared with the tree readers)."""
    try:
        old, new = repo[old_tree], repo[new_tree]
    except (KeyError, ValueError):
        return [], -1  # a tree from another clone: we know it differs, not how
    paths = [d.new_file.path or d.old_file.path for d in old.diff_to_tree(new).deltas]
    return paths[:limit], len(paths)
