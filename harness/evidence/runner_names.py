"""The top-level module names the test command's interpreter can import from its installed distributions.

A module the change adds at the tree's root under one of these is imported in its place as pytest starts (the
tree comes first on the import path): a plugin's pytest11 module, one of its dependencies (read 74's F-0260).
The names are the interpreter's that runs the tests, asked once per interpreter: the harness installed apart
from the project (pipx) has others (read 76's F-0267). Its own are added; a program that is no Python (a script
whose first line names none, a missing one) gives those alone; a name the tree itself provides (the project
installed editable) is the project's code, not one of them (read 79's F-0277).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
from pathlib import Path

# The names, but those the tree itself provides (the project installed editable: its own modules are its code, not
# the runner's: read 79's F-0277). Run from `/` with the tree's folder as its argument.
_ASK = """import importlib.metadata as m, importlib.util as u, json, os, sys
root = os.path.join(os.path.realpath(sys.argv[1]), "")
def ours(name):
    try:
        spec = u.find_spec(name)
    except Exception:
        return False
    places = ([spec.origin] if spec.origin else []) + list(spec.submodule_search_locations or []) if spec else []
    return any(os.path.realpath(p).startswith(root) for p in places)
print(json.dumps(sorted(n for n in m.packages_distributions() if not ours(n))))
"""


def installed_names(argv: list[str], root: Path) -> frozenset[str]:
    """The names the interpreter of the command ``argv`` (run from ``root``) and this one can import."""
    python = _interpreter(argv, root)
    return _asked(sys.executable, str(root)) | (_asked(python, str(root)) if python else frozenset())


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
def _asked(python: str, root: str) -> frozenset[str]:
    from harness.runner import run_command

    # From / : the tree's own modules are not the interpreter's.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = run_command([python, "-c", _ASK, root], cwd="/", env=env, timeout=30, echo=False)
    try:
        names = json.loads(result.stdout.head.decode("utf-8", errors="replace") or "[]") if result.exit_code == 0 else []
    except ValueError:
        return frozenset()
    return frozenset(n for n in names if isinstance(n, str))
