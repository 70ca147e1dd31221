"""The project's git-ignored Python environments (`.venv`), lent to a throw-away checkout for a run.

A reproducer runs as it did when it confirmed its finding: often with the project's own environment
(`"$here"/.venv/bin/python`, as this repository's reproducers do). A checkout of a commit holds no
git-ignored file, so there it cannot even start (exit 127), and the commit where the bug is would be
refused for that alone (F-0350). Only Python environments are lent, because only their imports can be
checked: the run's interpreters are asked where they import from, and the checkout's counterpart of
each folder of the repository they name comes first, or the run is refused
(:func:`harness.evidence.tree_imports.worktree_env`, F-0351). A build output's `bin/` is not one (a build
there would write the old commit's program into the working tree's, F-0352), nor is `node_modules`
(a workspace's relative links resolve into the working tree's packages, F-0354).

A virtual environment (a `pyvenv.cfg`) is not linked but shadowed (:mod:`harness.findings.shadow_env`, F-0376):
linked, its editable install named the working tree, and an interpreter started with -E or -I (as git hooks start
one), which reads no PYTHONPATH, imported the working tree's code in the checkout. The shadow's own site folder
names the checkout's folders instead, whatever the interpreter's flags. A folder of programs with no `pyvenv.cfg`
(a `bin/python` link) has no `.pth` its interpreter reads: it is still linked.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

_PYTHONS = ("bin/python3", "bin/python", "Scripts/python.exe")


@contextlib.contextmanager
def lent(root: Path, checkout: Path, is_ignored: Callable[[str], bool]) -> Iterator[list[Path]]:
    """Each top-level Python environment of ``root`` that git ignores and ``checkout`` lacks, lent to ``checkout``
    for the run: a virtual environment as its shadow, another as a link; removed afterwards (never what a link
    points at). Yields the lent environments' interpreters, as the checkout names them. HarnessError when a virtual
    environment's `.pth` line cannot be pointed at the checkout (:func:`shadow_env.build`)."""
    from harness.findings import shadow_env

    found = {name: marks for name, marks in _environments(root).items()
             if not os.path.lexists(checkout / name) and _ignored(name, marks, is_ignored)}
    made: list[Path] = []
    try:
        for name in found:
            made.append(checkout / name)
            if shadow_env.shadowable(root / name):
                shadow_env.build(root / name, checkout / name, root, checkout)
            else:
                os.symlink(root / name, checkout / name, target_is_directory=True)
        yield [checkout / name / python for name in found for python in _PYTHONS if (root / name / python).exists()]
    finally:
        for lent_env in reversed(made):  # removed here so no clean-up of the checkout ever walks into the environment
            _remove(lent_env)


def _remove(lent_env: Path) -> None:
    """A link unlinked; a shadow removed, its links unlinked (rmtree follows none)."""
    with contextlib.suppress(OSError):
        if os.path.islink(lent_env):
            os.unlink(lent_env)
        elif os.path.isdir(lent_env):
            shutil.rmtree(lent_env)


def _ignored(name: str, marks: list[str], is_ignored: Callable[[str], bool]) -> bool:
    """Whether git ignores the folder ``name``: its name, or what makes it an environment. uv, virtualenv and
    Python 3.13's venv write a `.gitignore` of `*` inside the folder, which no rule for its name matches (F-0353)."""
    return is_ignored(name) or any(is_ignored(f"{name}/{mark}") for mark in marks)


def _environments(root: Path) -> dict[str, list[str]]:
    """Top-level folder name -> what makes it a Python environment (:func:`marks`), for those that are one."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return {}
    return {e.name: found for e in entries if e.name != ".git" and (found := marks(Path(e.path)))}


def marks(folder: Path) -> list[str]:
    """What makes ``folder`` a Python environment: its `pyvenv.cfg`, its interpreters; empty when it is none."""
    try:
        return [mark for mark in ("pyvenv.cfg", *_PYTHONS) if (folder / mark).exists()]
    except OSError:
        return []
