"""Where `.harness/` files are read from: the working directory, or a git tree.

The gate and the validators run on the working directory for `harness gate`, and on a
commit's (or the index's) content in the git hooks. Both go through this small reader
interface, so one piece of loading code serves both.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Protocol

    class Source(Protocol):  # what the readers read from: the working tree, or a commit's tree
        label: str  # how messages name where the files came from
        valid_cache: Path | None  # where digests of schema-valid files are kept (harness.store.validate)

        def read(self, rel: str) -> bytes | None: ...
        def listdir(self, rel: str) -> list[str]: ...

# The errors Path.is_symlink takes for "no such link" (pathlib's _IGNORED_ERRNOS: ENOENT, ENOTDIR,
# EBADF, ELOOP, and Windows' own); any other (EACCES) is raised, as it raises it.
_NO_LINK_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)
_NO_LINK_WINERRORS = (21, 123, 1921)


def _is_symlink(path: str) -> bool:
    """``Path(path).is_symlink()`` without a Path object: a status of 50 tasks asks it of 200 paths."""
    import stat

    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError as exc:
        if exc.errno not in _NO_LINK_ERRNOS and getattr(exc, "winerror", None) not in _NO_LINK_WINERRORS:
            raise
        return False
    except ValueError:  # a path no system call can take (a NUL byte)
        return False


class FsSource:
    """The working tree's files. ``valid_cache``: where the digests of its schema-valid files are kept
    (the task store names the clone's own, `.harness/local/valid`; none: each is checked)."""

    def __init__(self, root: Path, valid_cache: Path | None = None) -> None:
        self.root = root
        self.label = "working tree"
        self.valid_cache = valid_cache

    def _plain(self, rel: str) -> Path:
        # git records a symlink as a link, not as what it points to: the commit hook would
        # judge something else than this reader. Refuse links inside .harness/ outright.
        path = self.root / rel
        parts = Path(rel).parts
        base = str(self.root)
        for n in range(1, len(parts) + 1):
            if _is_symlink(os.path.join(base, *parts[:n])):
                from harness.errors import HarnessError

                raise HarnessError(f"{'/'.join(parts[:n])}: a symlink inside .harness/ (git would not commit what it points to)",
                                   hint="replace the link with the real files")
        return path

    def at(self, commit: str) -> Source | None:
        """The files as ``commit`` of this working tree's repository has them (None: no such
        commit), read through git alone: `status` must not load pygit2 for it."""
        from harness.gitio.fast_path import CommitFiles

        return CommitFiles.at(self.root, commit)

    def committed_onto(self) -> Source | None:
        """The files of the commit a commit of this tree is made on, HEAD's, whose config.yaml and gate.yaml the commit
        hook compares this one's with (read through git alone, as :meth:`at`); None on an unborn branch. Found once per
        source: one command's checks (config.yaml's approval, gate.yaml's loosening) judge against the same HEAD, and
        `status` and every recording ask both (a `git rev-parse` each, before)."""
        found = self.__dict__.get("_onto", self)
        if found is self:
            from harness import paths
            from harness.gitio.fast_path import CommitFiles

            found = self._onto = CommitFiles.of_head(self.root, ahead=(paths.CONFIG, paths.GATE))
        return found

    def shallow(self) -> bool:
        """Whether this source's repository is a shallow clone."""
        from harness.gitio.adoption import is_shallow

        return is_shallow(self.root)

    def on_its_line(self, commit: str) -> bool:
        """Whether ``commit`` is in the history of the published line this working tree stands for (or of HEAD)."""
        from harness.gitio.adoption import on_published_line

        return on_published_line(self.root, commit)

    def config_steps(self, since: str) -> tuple[str, list[tuple[str, str]]] | None:
        """HEAD, and the commits of its first-parent line after ``since`` that changed config.yaml, each with the parent
        it changed it from (None: ``since`` is not on that line): the working tree's own change is the step after HEAD."""
        from harness.gitio.config_history import steps

        return steps(self.root, "HEAD", since)

    def adoption(self) -> Source | None:
        """The files of the earliest commit of this source's history that holds `.harness/config.yaml` (None: none does, and
        this is the change that adopts the harness)."""
        from harness.gitio.adoption import first_holding, published_line

        # HEAD is the agent's to move (F-0119): the published line it stands for says where the harness was adopted
        # too (adoption.published_line says which refs those are). The local branches are read only for an unborn
        # HEAD (an orphan branch), which has no history of its own.
        found = first_holding(self.root, "HEAD", published_line(self.root), when_unborn=("--branches",))
        return self.at(found) if found else None

    def unmerged(self, rel: str) -> bool:
        """Whether git holds ``rel`` in conflict (a merge stopped on it): asked of a file that failed to read."""
        from harness.gitio.unmerged import unmerged

        return unmerged(self.root, rel)

    def read(self, rel: str) -> bytes | None:
        from harness.store import bounded

        return bounded.read(self._plain(rel), bounded.kind_of(rel), rel)

    def sha256(self, rel: str) -> str | None:
        """The digest of a file too big to want in memory (an evidence log)."""
        from harness.store import bounded

        return bounded.sha256(self._plain(rel), bounded.kind_of(rel), rel)

    def listdir(self, rel: str) -> list[str]:
        try:
            return sorted(os.listdir(self._plain(rel)))  # the names Path.iterdir gives, without a Path each
        except (FileNotFoundError, NotADirectoryError):
            return []
