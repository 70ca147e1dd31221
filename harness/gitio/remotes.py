"""Remotes: fetching the commits an audit needs, and telling when libgit2 cannot see them all
(a shallow or a partial clone)."""

from __future__ import annotations

import subprocess

from harness.gitio.environment import git_env
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.repository import Repository


class Remotes(Repository):
    def remote_names(self) -> list[str]:
        return [r.name for r in self.repo.remotes]

    def has_remote(self, name: str) -> bool:
        return name in self.remote_names()

    def is_partial(self) -> bool:
        """A `--filter` clone: git fetches missing trees and blobs on demand, libgit2 does not."""
        if self.config_get("extensions.partialClone"):
            return True
        return any(self.config_get(f"remote.{name}.promisor") in ("true", "1", "yes", "on")
                   for name in self.remote_names())

    def fetch(self, remote: str, refspecs: list[str], timeout: float = 300) -> tuple[bool, str]:
        """`git fetch REMOTE REFSPEC...` without tags; (succeeded, git's message)."""
        try:
            proc = self.run_proc(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote, *refspecs],
                                 git_env({"GIT_TERMINAL_PROMPT": "0"}), timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, f"git fetch timed out after {timeout:g}s"
        return proc.returncode == 0, proc.stderr.strip()

    def unshallow(self, remote: str, timeout: float = 600) -> tuple[bool, str]:
        try:
            proc = self.run_proc(["fetch", "--quiet", "--unshallow", "--no-tags", remote],
                                 git_env({"GIT_TERMINAL_PROMPT": "0"}), timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, f"git fetch --unshallow timed out after {timeout:g}s"
        # libgit2 caches the shallow boundary: reopen so the walk sees the whole history.
        self.repo = pygit2.Repository(self.repo.path)
        self._honour_quarantine()
        # The common folder's `shallow` file, as History.is_shallow reads it: libgit2's answer is wrong in a
        # linked worktree.
        return proc.returncode == 0 and not (self.common_dir / "shallow").exists(), proc.stderr.strip()
