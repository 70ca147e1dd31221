"""The project's git-ignored environments (`.venv`, a tool folder), lent to a throw-away checkout for a run.

A reproducer runs as it did when it confirmed its finding: often with the project's own environment
(`"$here"/.venv/bin/python`, as this repository's reproducers do). A checkout of a commit holds no
git-ignored file, so there it cannot even start (exit 127), and the commit where the bug is would be
refused for that alone (F-0350). The environment's programs are the same on every commit; the code
they import is the checkout's, because the run's PYTHONPATH puts the checkout's folders first
(:func:`harness.evidence.pass_to_pass.inside`) — ahead of any `.pth` line of the environment's that
names the working tree, as an editable install has.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

# What makes a folder an environment rather than a build output or a cache: programs to run.
_MARKS = ("pyvenv.cfg", "bin", "Scripts", ".bin")


@contextlib.contextmanager
def lent(root: Path, checkout: Path, is_ignored: Callable[[str], bool]) -> Iterator[list[str]]:
    """Each top-level folder of ``root`` that git ignores, ``checkout`` lacks and :func:`is_environment`,
    linked into ``checkout`` for the run; the links (never what they point at) removed afterwards.
    Yields the names lent."""
    names = [name for name in _environments(root) if not os.path.lexists(checkout / name) and is_ignored(name)]
    made: list[Path] = []
    try:
        for name in names:
            os.symlink(root / name, checkout / name, target_is_directory=True)
            made.append(checkout / name)
        yield names
    finally:
        for link in made:  # unlinked here so no clean-up of the checkout ever walks into the environment
            with contextlib.suppress(OSError):
                os.unlink(link)


def _environments(root: Path) -> list[str]:
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    return sorted(e.name for e in entries if e.name != ".git" and is_environment(Path(e.path)))


def is_environment(folder: Path) -> bool:
    """A folder of programs: a virtual environment (`pyvenv.cfg`) or one with a `bin/`, `Scripts/` or `.bin/`."""
    try:
        return folder.is_dir() and any((folder / mark).exists() for mark in _MARKS)
    except OSError:
        return False
