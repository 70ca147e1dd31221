"""The stat of every file of the working tree's source, to tell a file left alone during a run from one written.

Two measurements of the source tree, before a command and after it, see the same tree when the command (or
anything beside it) put other bytes in a file and the first ones back in between: the command ran on bytes neither
names (read 95's F-0334). A file written, truncated, replaced or renamed gets a new ctime from the kernel, which
no unprivileged process sets back; so the same files with the same inode, ctime, mtime and size before the
first measurement and after the second held the same bytes all the while.

A folder renamed away, another put in its place and both renamed back touches no file's stat (read 99's F-0347),
so each folder on a source file's path, the root included, is measured too: by its inode (a folder swapped in is
another) and its ctime, which a rename of the folder moves and nothing sets back. An entry made or removed inside
the folder (``__pycache__/``, a test's temporary file) moves its ctime as well, but sets its mtime to the same
instant (Linux: ext4, tmpfs); a rename, a chmod leave the mtime behind. So a folder's ctime that moved and is not
its mtime is a change; one that is its mtime again is taken for an entry made, which an entry made inside the folder
after its rename back also gives (docs/threat-model.md names that gap).
"""

from __future__ import annotations

import os
import stat

from harness.core.value_class import dataclass
from harness.gitio.environment import HARNESS_DIR, measuring, own_env

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.gitio.worktree import Worktree


@dataclass(frozen=True)
class Snapshot:
    """The stat of the source's files and of the folders on their paths, at one moment."""

    files: dict    # name (bytes, as git lists it) -> its stat key, None when it is gone
    folders: dict  # each folder on a file's path (b"" the root) -> (dev, inode, mtime, ctime), None when gone

    def kept_by(self, after: Snapshot) -> bool:
        """Whether ``after`` (taken later) sees every file and folder of this one left as it was."""
        return self.files == after.files and self.folders.keys() == after.folders.keys() and all(
            _folder_kept(key, after.folders[name]) for name, key in self.folders.items())


def _folder_kept(before: tuple | None, after: tuple | None) -> bool:
    if before is None or after is None or before[:2] != after[:2]:
        return before == after
    return after[3] == before[3] or after[3] == after[2]  # its ctime still, or moved with its mtime: an entry made


def source_stat(git: Worktree) -> Snapshot:
    """The stat key of each file git would measure as source now: tracked (the real index's entries) and
    untracked-not-ignored, outside the top-level ``.harness``. A folder (a submodule, a repository inside the tree)
    is keyed by its kind alone: what is written inside it (a cache a test leaves) is no file of the source."""
    listed = git.run_bytes(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".",
                            f":(exclude){HARNESS_DIR}"], measuring(own_env()))
    names = [name for name in listed.split(b"\0") if name]
    root = os.open(git.root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return Snapshot({name: _key(name, root) for name in names},
                        {folder: _folder_key(folder, root) for folder in _folders_on_paths(names)})
    finally:
        os.close(root)


def _folders_on_paths(names: list[bytes]) -> set[bytes]:
    folders = {b""}
    for name in names:
        parts = name.rstrip(b"/").split(b"/")[:-1]
        folders.update(b"/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return folders


def _folder_key(folder: bytes, root: int) -> tuple | None:
    try:
        st = os.lstat(folder, dir_fd=root) if folder else os.fstat(root)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns


def _key(name: bytes, root: int) -> tuple | None:
    try:
        st = os.lstat(name.rstrip(b"/"), dir_fd=root)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode):
        return (stat.S_IFDIR,)
    return st.st_mode, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns
