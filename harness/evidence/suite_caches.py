"""What a run of the suite in the checkout sees that its source tree does not, and so a run PASS_TO_PASS reuses.

PASS_TO_PASS reuses the test command's run in the checkout only when nothing of the kind could have shaped it: a
`conftest.py` in `.git/info/exclude`, package metadata naming a pytest plugin, a module in place of one pytest
imports, or a bytecode cache. Python and pytest load a module's code from `__pycache__/NAME.TAG.pyc` whenever its
header matches the source, so a forged cache runs other code than the committed module, a test's or the code's
under test (read 67's F-0229, read 71). The caches are cleared before the suite's test command runs in the
checkout (all but those git tracks, which stay the project's); a cache older than the run's start was not its own.
Nor may a pytest configuration or conftest.py in a folder above the checkout have been in reach (read 110's F-0390).
What was there while the run ran is what counts, so the run's record keeps the verdict, taken just before the command
starts and just after it ends, with its environment's (:class:`RunWatch`, read 110's F-0391, F-0393).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from harness.core import suite
from harness.paths import PYTEST_CONFIGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from harness.core.redact import Redactor
    from harness.gitio.repository import Repository as Git  # any adapter: only `git.run` is used

# Folders pytest never collects and the interpreter does not import from (dot folders, virtualenvs, builds).
_NEVER_COLLECTED = frozenset({"node_modules", "venv", "build", "dist", "site-packages"})


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


def caches(root: Path) -> Iterator[str]:
    """Every bytecode cache file under ``root`` (outside the folders no run collects from), tracked or not; and a
    `__pycache__` that is a link, as itself (the walk does not follow it, the interpreter does: read 74's F-0262)."""
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not _uncollected(d)]
        yield from (os.path.relpath(os.path.join(top, d), root) for d in dirs
                    if d == "__pycache__" and os.path.islink(os.path.join(top, d)))
        if os.path.basename(top) == "__pycache__":
            yield from (os.path.relpath(os.path.join(top, n), root) for n in names if n.endswith(".pyc"))


def shaped_by(git: Git, root: Path, patterns: list[str], since: float) -> str | None:
    """A file that could have shaped a run of the suite started at ``since`` (seconds), or None: an ignored file the
    suite would protect, metadata naming a pytest plugin, a module in place of one pytest imports; or a bytecode
    cache the run did not write; or a file above ``root`` pytest could read (:func:`above`)."""
    outside = above(root)
    if outside is not None:
        return outside
    for rel in ignored_files(git, root):
        if suite.cached_source(rel) is not None:
            continue  # below, with the tracked ones
        if suite.is_metadata(rel):
            if _names_a_plugin(root / rel):
                return rel
        elif suite.protected([rel], patterns, set()) or suite.shadows_what_the_runner_imports(rel):
            return rel
    tracked = _tracked_caches(git)
    # A tracked cache was there before the run and survived its clearing; a linked folder is not one the run wrote
    # into; either may hold a forged cache, whatever its change time says (a chmod sets that: read 74's F-0263).
    return next((rel for rel in caches(root) if rel in tracked or os.path.islink(root / rel)
                 or _older(root / rel, since)), None)


# What pytest, searching upward from the checkout, would take from a folder above it: a configuration file (and then
# the conftest.py files from its folder down), a setup.py (which makes its folder the rootdir, and so loads the
# conftest.py files from there down), a conftest.py.
_READ_ABOVE = (*PYTEST_CONFIGS, "setup.py", "conftest.py")
_CONFIG_READ = 8 << 20  # bytes of a root configuration file read: pytest's own is no bigger
_SHOWN_NAMES = 20  # variables a record names; the rest are counted


def above(root: Path) -> str | None:
    """A file in a folder above the checkout ``root`` that pytest, run there, could read (relative to ``root``:
    `../pytest.ini`), or None: none is there, or the root holds a configuration every pytest takes, which ends the
    search there (:mod:`harness.core.pytest_search`, whose stop PASS_TO_PASS's worktrees get: read 110's F-0390)."""
    real = os.path.realpath(root)
    folders = dict.fromkeys([*Path(real).parents, *Path(os.path.abspath(root)).parents])
    found = next((folder / name for folder in folders for name in _READ_ABOVE if os.path.lexists(folder / name)), None)
    if found is None or _search_ends_at(Path(real)):
        return None
    return os.path.relpath(found, real)


def _search_ends_at(root: Path) -> bool:
    from harness.core.pytest_search import stop_file

    texts = {}
    for name in PYTEST_CONFIGS:
        if os.path.isfile(root / name):  # as pytest looks: a symlink to a file is the file
            try:
                with open(root / name, "rb") as f:
                    texts[name] = f.read(_CONFIG_READ).decode("utf-8", errors="replace")
            except OSError:
                return False  # unreadable here: pytest may read it otherwise
    return stop_file(texts) is None


class RunWatch:
    """Whether the suite's own run in the checkout ``root`` is one PASS_TO_PASS may reuse, judged while it runs: its
    environment held nothing beyond what PASS_TO_PASS's clean run keeps that could shape it
    (:mod:`harness.core.reusable_env`), and :func:`shaped_by` found nothing just before the command started or just
    after it ended — a file deleted before PASS_TO_PASS looks was there when the run read it (read 110's F-0391,
    F-0393). The record keeps the verdict and the reasons, names and paths only."""

    def __init__(self, git: Git, root: Path, patterns: list[str]) -> None:
        self.git, self.root, self.patterns = git, root, patterns
        self.why: list[str] = []

    def before(self, environ: Mapping[str, str], program: str | None) -> None:
        """Just before the command starts, in the environment ``environ``, running ``program``."""
        import time

        from harness.core.reusable_env import shaping
        from harness.runner import KEPT_ENV

        names = shaping(environ, KEPT_ENV, program)
        if names:
            shown = ", ".join(names[:_SHOWN_NAMES]) + (f" and {len(names) - _SHOWN_NAMES} more"
                                                       if len(names) > _SHOWN_NAMES else "")
            self.why.append(f"its environment held {shown}, which PASS_TO_PASS's clean environment does not")
        self._files(time.time(), "before")

    def after(self, started_at: float) -> None:
        """Just after the command, started at ``started_at`` (seconds), ended."""
        self._files(started_at, "after")

    def _files(self, since: float, when: str) -> None:
        from harness.errors import HarnessError

        try:
            found = shaped_by(self.git, self.root, self.patterns, since)
        except (HarnessError, OSError):  # not known: not reusable, and the run is still recorded
            self.why.append(f"the files that could have shaped it could not be listed {when} it ran")
            return
        if found is not None:
            self.why.append(f"{found} could have shaped it (seen {when} it ran)")

    def fields(self, redactor: Redactor) -> dict:
        """The record's fields: `reusable`, and `not_reusable` (why) when it is not."""
        return {"reusable": not self.why, **({"not_reusable": [redactor.redact(w) for w in self.why]} if self.why else {})}


def _tracked_caches(git: Git) -> set[str]:
    return set(filter(None, git.run(["ls-files", "-z", "--", ":(glob)**/__pycache__/**"]).split("\0")))


def _names_a_plugin(path: Path) -> bool:
    """An `entry_points.txt` with a `[pytest11]` group: the one part of an (editable install's, git-ignored) metadata
    folder pytest reads; the rest stops no reuse (read 71)."""
    if path.name != "entry_points.txt":
        return False
    try:
        return "[pytest11]" in path.read_text("utf-8", errors="replace").replace(" ", "")
    except OSError:
        return True  # unreadable: it may name one


def _older(path: Path, since: float) -> bool:
    """Changed before ``since``: `st_ctime`, which no one sets by hand (a forged cache's mtime can name any time)."""
    try:
        return os.stat(path).st_ctime < since
    except OSError:
        return False


def clear(git: Git, root: Path) -> None:
    """Remove the bytecode caches git does not track: the suite's run then writes its own, and PASS_TO_PASS may
    reuse it (:func:`shaped_by`)."""
    tracked = _tracked_caches(git)
    for rel in caches(root):
        if rel not in tracked:
            with contextlib.suppress(OSError):
                os.unlink(root / rel)
