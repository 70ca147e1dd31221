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

