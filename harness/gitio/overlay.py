"""Trees made for PASS_TO_PASS: every file of a tree by path, and the current source with the
base's protected files put back in place of the current ones."""

from __future__ import annotations

import os

from harness import scratch_files
from harness.gitio.environment import own_env
from harness.gitio.trees import Trees

# A commit nobody pushes or keeps (a worktree needs a commit to check out); fixed names and dates
# make the same overlay the same commit.
_IDENT = {"GIT_AUTHOR_NAME": "harness", "GIT_AUTHOR_EMAIL": "harness@localhost", "GIT_COMMITTER_NAME": "harness",
          "GIT_COMMITTER_EMAIL": "harness@localhost", "GIT_AUTHOR_DATE": "1700000000 +0000",
          "GIT_COMMITTER_DATE": "1700000000 +0000"}


class Overlay(Trees):
    def files_of(self, tree_id: str) -> dict[str, str]:
        """path -> "MODE OID" of every file (blob, link or submodule) in the tree."""
        out: dict[str, str] = {}
        stack = [("", self.repo[tree_id])]
        while stack:
            prefix, tree = stack.pop()
            for entry in tree:
                path = prefix + entry.name
                if entry.filemode == 0o040000:
                    stack.append((path + "/", self.repo[entry.id]))
                else:
                    out[path] = f"{entry.filemode:06o} {entry.id}"
        return out

    def overlay_commit(self, tree_id: str, base_files: dict[str, str], paths: list[str]) -> str:
        """A commit of ``tree_id`` with each of ``paths`` as ``base_files`` has it (removed where the
        base has no such file)."""
        fd, index = scratch_files.create(self.repo.path, "harness-overlay-index.")
        os.close(fd)
        os.unlink(index)  # git writes it anew
        env = {**own_env(), **_IDENT, "GIT_INDEX_FILE": index}
        try:
            self.run(["read-tree", tree_id], env)
            lines = []
            for path in paths:
                if path in base_files:
                    mode, oid = base_files[path].split(" ")
                    lines.append(f"{mode} {oid}\t{path}")
                else:
                    lines.append(f"0 {'0' * 40}\t{path}")  # mode 0: remove the entry
            if lines:
                self.run(["update-index", "--index-info"], env, input="\n".join(lines) + "\n")
            tree = self.run(["write-tree"], env).strip()
            return self.run(["commit-tree", tree, "-m", "harness: PASS_TO_PASS overlay"], env).strip()
        finally:
            for leftover in (index, index + ".lock"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
