"""What a run of the suite in the checkout sees that its source tree does not, and so a run PASS_TO_PASS reuses.

PASS_TO_PASS reuses the test command's run in the checkout only when nothing of the kind could have shaped it: a
`conftest.py` in `.git/info/exclude`, package metadata naming a pytest plugin, a module in place of one pytest
imports, or a bytecode cache. Python and pytest load a module's code from `__pycache__/NAME.TAG.pyc` whenever its
header matches the source, so a forged cache runs other code than the committed module, a test's or the code's
under test (read 67's F-0229, read 71). The caches are cleared before the suite's test command runs in the
checkout (all but those git tracks, which stay the project's); a cache older than the run's start was not its own.
Nor may a pytest configuration or conftest.py in a folder above the checkout have been in reach (read 110's F-0390),
nor an ignored module, package or extension the interpreter imports in place of a tracked one of the same name
(`calc/__init__.py` over `calc.py`, read 115's F-0411).
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

# Folders pytest never collects and the interpreter imports no project code from (with the dot folders: .venv, .tox,
# .mypy_cache), unless git tracks code under one or it is a package (:func:`_skipped`).
_NEVER_COLLECTED = frozenset({"node_modules", "venv", "build", "dist", "site-packages"})


class Tracked:
    """What git tracks that the walks need: the bytecode caches, the folders holding code at any depth (`mypkg`,
    `mypkg/build`) and the names the interpreter could import that code by (`calc`, `mypkg`, `build`, `ops`)."""

    def __init__(self, files: list[str]) -> None:
        self.caches = {rel for rel in files if suite.cached_source(rel) is not None}
        self.code: set[str] = set()
        self.names: set[str] = set()
        for rel in files:
            name = suite.module_name(rel)
            if name is None or rel in self.caches:
                continue
            folders = rel.split("/")[:-1]
            self.names.update([name, *(part for part in folders if part.isidentifier())])
            self.code.update("/".join(folders[:i]) for i in range(1, len(folders) + 1))


def tracked(git: Git) -> Tracked:
    """What git tracks in the checkout (:class:`Tracked`)."""
    return Tracked(list(filter(None, git.run(["ls-files", "-z"]).split("\0"))))


def ignored_files(git: Git, root: Path, code: set[str]) -> Iterator[str]:
    """Every file of the checkout git ignores, outside the folders no run collects from or imports the project's code
    from (:func:`_skipped`; ``code``: the folders holding tracked code, :attr:`Tracked.code`), relative to ``root``."""
    listed = git.run(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"])
    for entry in filter(None, listed.split("\0")):
        if _skipped(root, entry.rstrip("/"), code):
            continue
        if not entry.endswith("/"):
            yield entry
            continue
        for top, dirs, names in os.walk(root / entry):
            here = os.path.relpath(top, root)
            dirs[:] = [d for d in dirs if not _skipped(root, f"{here}/{d}", code)]
            yield from (f"{here}/{name}" for name in names)


def _skipped(root: Path, rel: str, code: set[str] | None) -> bool:
    """Whether ``rel`` lies in a folder no run collects from or imports the project's code from: a dot folder, a
    virtualenv, a build — unless git tracks code under it (a subpackage `mypkg/build/`: read 115's F-0412) or, for
    a name the interpreter can import, it is a package (an ignored `mypkg/build/__init__.py` over the tracked
    `mypkg/build.py`: F-0411). With no ``code`` known (a throw-away checkout of a commit, which holds only what it
    tracks), none is skipped."""
    if code is None:
        return False
    parts = rel.split("/")
    for i, part in enumerate(parts):
        folder = "/".join(parts[:i + 1])
        if folder in code:
            continue
        if part.startswith(".") or (part in _NEVER_COLLECTED and not _is_package(root / folder)):
            return True
    return False


def _is_package(folder: Path) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(e.name.startswith("__init__.") and suite.module_name(e.name) == "__init__" for e in entries)
    except OSError:  # a file, or not there
        return False


def caches(root: Path, code: set[str] | None = None) -> Iterator[str]:
    """Every bytecode cache file under ``root``, tracked or not, outside the folders no run collects from or imports
    the project's code from (:func:`_skipped`: ``code`` holds the folders of tracked code; None, as in a throw-away
    checkout, skips none); and a `__pycache__` that is a link, as itself (the walk does not follow it, the
    interpreter does: read 74's F-0262)."""
    for top, dirs, names in os.walk(root):
        here = os.path.relpath(top, root)
        dirs[:] = [d for d in dirs if not _skipped(root, d if here == "." else f"{here}/{d}", code)]
        yield from (os.path.relpath(os.path.join(top, d), root) for d in dirs
                    if d == "__pycache__" and os.path.islink(os.path.join(top, d)))
        if os.path.basename(top) == "__pycache__":
            yield from (os.path.relpath(os.path.join(top, n), root) for n in names if n.endswith(".pyc"))


def shaped_by(git: Git, root: Path, patterns: list[str], since: float) -> str | None:
    """A file that could have shaped a run of the suite started at ``since`` (seconds), or None: an ignored file the
    suite would protect, metadata naming a pytest plugin, a module in place of one pytest imports or of a tracked
    one; or a bytecode cache the run did not write; or a file above ``root`` pytest could read (:func:`above`)."""
    outside = above(root)
    if outside is not None:
        return outside
    ours = tracked(git)
    for rel in ignored_files(git, root, ours.code):
        if suite.cached_source(rel) is not None:
            continue  # below, with the tracked ones
        if suite.is_metadata(rel):
            if _names_a_plugin(root / rel):
                return rel
        elif suite.protected([rel], patterns, set()) or suite.shadows_what_the_runner_imports(rel) \
                or suite.module_name(rel) in ours.names:
            # Imported in place of the tracked module of its name, from any folder the run imports from (the root,
            # src/, a pythonpath or conftest folder): judged by the name alone, whichever folder comes first.
            return rel
    # A tracked cache was there before the run and survived its clearing; a linked folder is not one the run wrote
    # into; either may hold a forged cache, whatever its change time says (a chmod sets that: read 74's F-0263).
    return next((rel for rel in caches(root, ours.code) if rel in ours.caches or os.path.islink(root / rel)
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
    ours = tracked(git)
    for rel in caches(root, ours.code):
        if rel not in ours.caches:
            with contextlib.suppress(OSError):
                os.unlink(root / rel)
