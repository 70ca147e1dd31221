"""The stat of every file of the working tree's source, to tell a file left alone during a run from one written.

Two measurements of the source tree, before a command and after it, see the same tree when the command (or
anything beside it) put other bytes in a file and the first ones back in between: the command ran on bytes neither
names (read 95's F-0334). A file written, truncated, replaced or renamed gets a new ctime from the kernel, which
no unprivileged process sets back; so the same files with the same inode, ctime, mtime and size before the
first measurement and after the second held the same bytes all the while.
"""

from __future__ import annotations

import os
import stat

from harness.gitio.environment import HARNESS_DIR, measuring, own_env

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.gitio.worktree import Worktree

Snapshot = dict  # name (bytes, as git lists it) -> its stat key, None when it is gone


def source_stat(git: Worktree) -> Snapshot:
    """The stat key of each file git would measure as source now: tracked (the real index's entries) and
    untracked-not-ignored, outside the top-level ``.harness``. A folder (a submodule, a repository inside the tree)
    is keyed by its kind alone: what is written inside it (a cache a test leaves) is no file of the source."""
    listed = git.run_bytes(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".",
                            f":(exclude){HARNESS_DIR}"], measuring(own_env()))
    root = os.open(git.root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return {name: _key(name, root) for name in listed.split(b"\0") if name}
    finally:
        os.close(root)


def _key(name: bytes, root: int) -> tuple | None:
    try:
        st = os.lstat(name.rstrip(b"/"), dir_fd=root)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode):
        return (stat.S_IFDIR,)
    return st.st_mode, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns
