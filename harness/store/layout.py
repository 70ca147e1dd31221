"""Where things live: the repository root and the `.harness/` folder inside it."""

from __future__ import annotations

import os
import re
from pathlib import Path

from harness import paths
from harness.core.value_class import dataclass
from harness.errors import HarnessError

TASK_ID = re.compile(r"^TASK-[0-9]{8}-[0-9a-f]{6}$")


def find_worktree(start: Path | None = None) -> Path:
    """The top of the git work tree containing ``start`` (no git import: a cheap walk up)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    raise HarnessError(
        f"{here} is not inside a git work tree",
        hint="run `git init` (or cd into your repository) first; the harness binds evidence to git trees",
    )


@dataclass(frozen=True)
class Layout:
    root: Path

    @property
    def harness(self) -> Path:
        return self.root / paths.HARNESS

    @property
    def config(self) -> Path:
        return self.root / paths.CONFIG

    @property
    def gate(self) -> Path:
        return self.root / paths.GATE

    @property
    def tasks(self) -> Path:
        return self.root / paths.TASKS

    @property
    def local(self) -> Path:
        """Untracked per-clone state: lock, redo log, current-task choice, caches."""
        return self.root / paths.LOCAL

    @property
    def lock(self) -> Path:
        return self.root / paths.LOCK

    @property
    def valid_cache(self) -> Path:
        """Where the clone keeps the digests of its schema-valid files (harness.store.validate)."""
        return self.root / paths.LOCAL / "valid"

    def task_dir(self, task_id: str) -> Path:
        return self.tasks / task_id

    def rel(self, path: Path) -> str:
        return os.path.relpath(path, self.root)


def open_layout(start: Path | None = None, must_exist: bool = True) -> Layout:
    layout = Layout(find_worktree(start))
    if must_exist and not layout.harness.is_dir():
        raise HarnessError(
            f"no .harness/ in {layout.root}",
            hint="run `harness init` to set this repository up",
        )
    return layout
