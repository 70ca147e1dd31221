"""The git adapter's one class, and the check that its source trees are what a command would see."""

from __future__ import annotations

from harness.gitio.notes import Notes
from harness.gitio.overlay import Overlay
from harness.gitio.remotes import Remotes
from harness.gitio.revisions import History
from harness.gitio.worktree import Worktree

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from pathlib import Path


class Git(History, Notes, Worktree, Remotes, Overlay):
    """A repository and everything the harness asks of it; each base class is one concern
    (see :mod:`harness.gitio`), all sharing :class:`~harness.gitio.repository.Repository`."""

    # Where the digests of schema-valid `.harness/` files read from its trees are kept: the clone's own
    # cache when the hook that opened it names it (harness.history.hook_checks.hook_git); none, each is checked.
    valid_cache: Path | None = None

