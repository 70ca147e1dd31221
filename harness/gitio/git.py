"""The git adapter's one class, and the check that its source trees are what a command would see."""

from __future__ import annotations

from harness.gitio.notes import Notes
from harness.gitio.overlay import Overlay
from harness.gitio.remotes import Remotes
from harness.gitio.revisions import History
from harness.gitio.worktree import Worktree


class Git(History, Notes, Worktree, Remotes, Overlay):
    """A repository and everything the harness asks of it; each base class is one concern
    (see :mod:`harness.gitio`), all sharing :class:`~harness.gitio.repository.Repository`."""


def ensure_recordable(git: Git) -> Git:
    """``git``, refused when the caller's environment or config would make git (and the
    command) see another tree than the one the harness records."""
    from harness.errors import Refused

    root = git.root
    why = git.foreign_location()
    if why:
        raise Refused(f"not recording: {why}, so the command would not see the source tree the harness "
                      f"measures at {root}",
                      hint="unset the GIT_* variable (or core.worktree) and run again from the repository itself")
    return git
