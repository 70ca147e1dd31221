"""The top-level module names the test command's interpreter can import from its installed distributions.

A module the change adds at the tree's root under one of these is imported in its place as pytest starts (the
tree comes first on the import path): a plugin's pytest11 module, one of its dependencies (read 74's F-0260).
The names are the interpreter's that runs the tests, asked once per interpreter: the harness installed apart
from the project (pipx) has others (read 76's F-0267). Its own are added; a program that is no Python (a script
whose first line names none, a missing one) gives those alone.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

_ASK = "import importlib.metadata as m, json; print(json.dumps(sorted(m.packages_distributions())))"


def installed_names(argv: list[str], root: Path) -> frozenset[str]:
    """The names the interpreter of the command ``argv`` (run from ``root``) and this one can import."""
    python = _interpreter(argv, root)
    return _own() | (_asked(python) if python else frozenset())


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
def _asked(python: str) -> frozenset[str]:
    from harness.runner import run_command

    # From / : the tree's own modules are not the interpreter's.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = run_command([python, "-c", _ASK], cwd="/", env=env, timeout=30, echo=False)
    try:
        names = json.loads(result.stdout.head.decode("utf-8", errors="replace") or "[]") if result.exit_code == 0 else []
    except ValueError:
        return frozenset()
    return frozenset(n for n in names if isinstance(n, str))


@functools.cache
def _own() -> frozenset[str]:
    from importlib.metadata import packages_distributions

    try:
        return frozenset(packages_distributions())
    except Exception:  # a broken distribution's metadata: the names that hold without it
        return frozenset()

