"""The files git ignores under the protected suite, which a run in the checkout sees and its source tree does not.

PASS_TO_PASS reuses the test command's run in the checkout only when nothing of the kind could have shaped it:
a `conftest.py` in `.git/info/exclude`, or a bytecode cache of a protected test module. Python and pytest load
a module's code from `__pycache__/NAME.TAG.pyc` whenever its header matches the source, so a forged one runs
other code than the committed test (read 67's F-0229). The suite's own caches are cleared before its test
command runs in the checkout; a cache of a protected module older than the run's start was not written by it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from harness.core import suite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from harness.gitio.repository import Repository as Git  # any adapter: only `git.run` is used

# Folders pytest never collects and the interpreter does not import from (dot folders, virtualenvs, builds).
_NEVER_COLLECTED = frozenset({"node_modules", "venv", "build", "dist", "site-packages"})
_CACHE = "__pycache__"


def ignored_files(git: Git, root: Path) -> Iterator[str]:
    """Every file of the checkout git ignores, outside the folders no run collects from, relative to ``root``."""
    listed = git.run(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"])
    for entry in filter(None, listed.split("\0")):
        if _uncollected(entry.rstrip("/")):
            continue
        if not entry.endswith("/"):
            yield entry
            continue
        for top, dirs, names in os.walk(root / entry):
            dirs[:] = [d for d in dirs if not _uncollected(d)]
            yield from (os.path.relpath(os.path.join(top, name), root) for name in names)


def _uncollected(rel: str) -> bool:
    return any(part.startswith(".") or part in _NEVER_COLLECTED for part in rel.split("/"))


def cached_source(rel: str) -> str | None:
    """The module a `__pycache__` file is the bytecode of (`a/__pycache__/m.cpython-311.pyc` → `a/m.py`), or None
    for a file outside a cache."""
    folder, _, name = rel.rpartition("/")
    parent, _, last = folder.rpartition("/")
    if last != _CACHE:
        return None
    module = name.split(".", 1)[0]
    return f"{parent}/{module}.py" if parent else f"{module}.py"


def shaped_by(git: Git, root: Path, patterns: list[str], since: float) -> str | None:
    """An ignored file that could have shaped a run of the suite started at ``since`` (seconds), or None: a
    protected file, or the cache of a protected module that the run did not write."""
    for rel in ignored_files(git, root):
        source = cached_source(rel)
        if source is None:
            if suite.protected([rel], patterns, set()):
                return rel
        elif suite.protected([source], patterns, set()) and _older(root / rel, since):
            return rel
    return None


def _older(path: Path, since: float) -> bool:
    """Changed before ``since``: `st_ctime`, which no one sets by hand (a forged cache's mtime can name any time)."""
    try:
        return os.stat(path).st_ctime < since
    except OSError:
        return False


def clear(git: Git, root: Path, patterns: list[str]) -> None:
    """Remove the bytecode caches of the protected modules (git ignores them): the suite's run then writes its own,
    and PASS_TO_PASS may reuse it (:func:`shaped_by`)."""
    for rel in ignored_files(git, root):
        source = cached_source(rel)
        if source is not None and rel.endswith(".pyc") and suite.protected([source], patterns, set()):
            with contextlib.suppress(OSError):
                os.unlink(root / rel)
