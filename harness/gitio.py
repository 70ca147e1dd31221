"""The git adapter: the only module that imports pygit2.

A "source tree" is a git tree id of the code with the top-level ``.harness`` entry
removed, so that recording evidence, ledger events and notes never changes what the
evidence is about. For a commit it is one tree edit on the root tree, whatever the size
of the repository; for the working directory it is the tree ``git add -A`` would write,
computed in a throw-away index so the user's staging area is never touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pygit2

from harness.errors import HarnessError

HARNESS_DIR = ".harness"


class Git:
    def __init__(self, root: Path) -> None:
        try:
            self.repo = pygit2.Repository(str(root))
        except pygit2.GitError as exc:
            raise HarnessError(f"{root}: not a git repository ({exc})") from None
        self.root = Path(root)

    # -- commits ---------------------------------------------------------------
    def head(self) -> str | None:
        """HEAD's commit id, or None on an unborn branch."""
        try:
            return str(self.repo.head.target) if not self.repo.head_is_unborn else None
        except pygit2.GitError:
            return None

    def resolve(self, rev: str) -> str:
        try:
            return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            raise HarnessError(f"unknown revision {rev!r}") from None

    def commit_tree(self, rev: str) -> str:
        return str(self.repo.revparse_single(rev).peel(pygit2.Commit).tree_id)

    # -- source trees ----------------------------------------------------------
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

    def index_source_tree(self, index_file: str | None = None) -> str:
        """The source tree of an index file (default: the one git is committing)."""
        path = index_file or os.environ.get("GIT_INDEX_FILE") or os.path.join(self.repo.path, "index")
        if not os.path.isabs(path):
            path = str(self.root / path)
        if not os.path.exists(path):
            return self.empty_tree()
        return self.strip_harness(str(pygit2.Index(path).write_tree(self.repo)))

    def worktree_source_tree(self) -> str:
        """The tree of the working directory's source: tracked and untracked-not-ignored files."""
        gitdir = self.repo.path
        fd, tmp = tempfile.mkstemp(prefix="harness-index.", dir=gitdir)
        os.close(fd)
        try:
            real = os.path.join(gitdir, "index")
            if os.path.exists(real):
                shutil.copyfile(real, tmp)  # start from the stat cache: only changed files are hashed
            else:
                os.unlink(tmp)
            env = {**os.environ, "GIT_INDEX_FILE": tmp}
            self._git(["add", "-A", "--", ".", f":(exclude){HARNESS_DIR}"], env)
            tree = self._git(["write-tree"], env).strip()
        finally:
            for leftover in (tmp, tmp + ".lock"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
        return self.strip_harness(tree)

    def _git(self, args: list[str], env: dict[str, str]) -> str:
        proc = subprocess.run(["git", *args], cwd=self.root, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise HarnessError(f"git {' '.join(args[:2])} failed: {proc.stderr.strip()}")
        return proc.stdout

    def changed_paths(self, old_tree: str, new_tree: str, limit: int = 10) -> tuple[list[str], int]:
        """Up to ``limit`` paths that differ between two trees, and how many differ in all."""
        try:
            old, new = self.repo[old_tree], self.repo[new_tree]
        except (KeyError, ValueError):
            return [], -1  # a tree from another clone: we know it differs, not how
        diff = old.diff_to_tree(new)
        paths = [d.new_file.path or d.old_file.path for d in diff.deltas]
        return paths[:limit], len(paths)
