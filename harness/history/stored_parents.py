"""History is judged by the parents its commits store, which a graft file would hide.

`.git/info/grafts` (deprecated by git since 2.18) gives a commit other parents than it stores; git's
revision walks and libgit2's alike read them, while a push sends the commits as stored. Judged through a
graft, a commit that truncates the ledger can look like a code-only commit on an older one (#28's task
F-0056). The push guard, the server hook and the audit refuse to judge through one rather than guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.gitio.git import Git


def require_stored_parents(git: Git) -> None:
    graft = git.graft_file()
    if graft is not None:
        raise HarnessError(f"{graft} gives commits other parents than the ones they store (and send): the harness "
                           "judges history as stored, and does not judge through info/grafts",
                           hint="a human turns the grafts into replace refs, which the harness reads as stored: "
                                "`git replace --convert-graft-file` (or deletes the file; the agent guard refuses both)")
