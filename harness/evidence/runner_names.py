"""What the test command's interpreter imports as pytest starts: the top-level module names its installed
distributions provide, and the folders of the tree it imports from.

A module the change adds at the tree's root under one of these names is imported in its place as pytest starts (the
tree comes first on the import path): a plugin's pytest11 module, one of its dependencies (read 74's F-0260).
The names are the interpreter's that runs the tests, asked once per interpreter: the harness installed apart
from the project (pipx) has others (read 76's F-0267). Its own are added; a program that is no Python (a script
whose first line names none, a missing one) gives those alone; a name the tree itself provides (the project
installed editable) is the project's code, not one of them (read 79's F-0277).

The same probe says where the interpreter imports from (:data:`import_probe.DESCRIBE`, no code of the tree running
in it: read 89's F-0306): the tree's folders on its import path (an editable install's `.pth` naming `lib/`) are
those whose worktree counterparts a PASS_TO_PASS run puts first on PYTHONPATH, where such a module the change adds is
imported as well (read 153's F-0540). One probe answers both.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

from harness.errors import HarnessError
from harness.evidence import import_probe, tree_imports

# The names, but those the tree itself provides (the project installed editable: its own modules are its code, not
# the runner's: read 79's F-0277), after import_probe's start (`os`, `sys` imported); the tree's folder is the
# argument. A distribution's files the probe may not read (metadata kept in the tree) give no names: its own.
_NAMES = """
import importlib.metadata as _metadata, importlib.util as _util
_root = os.path.join(os.path.realpath(sys.argv[1]), "")
def _ours(name):
    try:
        spec = _util.find_spec(name)
    except Exception:
        return False
    places = ([spec.origin] if spec.origin else []) + list(spec.submodule_search_locations or []) if spec else []
    return any(os.path.realpath(p).startswith(_root) for p in places)
try:
    answer['installed'] = sorted(n for n in _metadata.packages_distributions() if not _ours(n))
except Exception:
    answer['installed'] = None
"""


class Said(NamedTuple):
    """What an interpreter says of itself, for a tree: its names, and the tree's folders it imports from."""
    names: frozenset[str]
    folders: tuple[str, ...]


NOTHING = Said(frozenset(), ())


def installed_names(argv: list[str], root: Path) -> frozenset[str]:
    """The names the interpreter of the command ``argv`` (run from ``root``) and this one can import."""
    return _asked(sys.executable, str(root)).names | runner_said(argv, root).names


def runner_folders(command: list[str] | str, root: Path) -> list[str]:
    """The folders of ``root``, relative to it, that the interpreters the worktree run asks import from
    (:func:`tree_imports.said_folders`: an editable install's `lib/`), the run putting their worktree counterparts
    first: the command's own (its program, or the Python its `#!` line or virtualenv names) and the first `python3` on
    the run's PATH, which a script or a shell line starts (:func:`tree_imports.candidates`, as
    :func:`tree_imports.checkout_folders` asks them: read 157's F-0549). None from one that cannot say."""
    from harness.runner import clean_env

    word = tree_imports.first_word(command)
    asked = tree_imports.candidates([word] if word else [], clean_env(), root, every_on_path=False)
    own = _interpreter(command, root) if isinstance(command, list) else None
    pythons = list(dict.fromkeys([*([own] if own else []), *asked]))
    return list(dict.fromkeys(f for python in pythons for f in _asked(python, str(root)).folders))


def runner_said(argv: list[str], root: Path) -> Said:
    """What the interpreter of the command ``argv`` says (:func:`_asked`); nothing for a program that is no Python."""
    python = _interpreter(argv, root)
    return _asked(python, str(root)) if python else NOTHING


def _interpreter(argv: list[str], root: Path) -> str | None:
    """The Python that runs ``argv``: its program when that is a Python, else the one a script's `#!` line names."""
    if not argv:
        return None
    program = argv[0] if os.path.isabs(argv[0]) or "/" not in argv[0] else str(root / argv[0])
    found = shutil.which(program) if "/" not in program else program if os.access(program, os.X_OK) else None
    if found is None:
        return None
    if os.path.basename(found).startswith("python"):
        return found
    try:
        with open(found, "rb") as fh:
            first = fh.readline(512).decode("utf-8", errors="replace")
    except OSError:
        return None
    words = first[2:].split() if first.startswith("#!") else []
    if words and os.path.basename(words[0]) == "env" and len(words) > 1:
        words = [shutil.which(words[1]) or words[1]]
    return words[0] if words and "python" in os.path.basename(words[0]) else None


@functools.cache
def _asked(python: str, root: str) -> Said:
    """What ``python`` says, asked once (per interpreter and tree) from `/` with no code of the tree ``root`` running
    in it; nothing when it cannot say."""
    from harness.runner import clean_env

    # From / : the tree's own modules are not the interpreter's. With the run's environment: a PYTHONNOUSERSITE of the
    # caller's, which the run drops, hid a folder the run imports from (F-0562).
    try:
        said, _ = import_probe.ask(python, Path("/"), clean_env(), import_probe.DESCRIBE + _NAMES, [root], [Path(root)], "")
    except HarnessError:
        return NOTHING
    if not isinstance(said, dict):
        return NOTHING
    names = said.get("installed")
    return Said(frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset(),
                tuple(tree_imports.said_folders(said, Path(root))))
