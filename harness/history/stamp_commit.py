"""Write the harness note on a commit by hand (`harness stamp REV`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.gitio.git import Git


@dataclass(frozen=True)
class Stamped:
    note: dict[str, Any]         # the note as written: commit, ref, source tree, each task's state and gate

    def as_dict(self) -> dict[str, Any]:
        return self.note


def stamp_commit(git: Git, rev: str) -> Stamped:
    from harness.history.stamp import stamp
    from harness.signatures.trust import Signers

    return Stamped(stamp(git, git.resolve(rev), Signers(lambda: git)))  # git config's signers, if it names any
