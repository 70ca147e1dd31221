"""The Pythons a re-run's scripts start by an absolute path, read from the commit's own files.

`sh run_tests.sh`, whose script runs `/ci/venv/bin/python -m pytest`, starts an interpreter no PATH lookup
finds. An earlier re-run could write a sitecustomize.py into its site-packages, or its editable install could
point at the checkout, and the re-run guard would not know (#24's task F-0010, F-0011). So the files a command
names, and the commit's files those name in turn, are read for absolute paths: each that is a Python, or lies
in a virtualenv, names an interpreter the guard probes and fingerprints before the run. A path a script builds
at run time stays unseen: against an adversarial script, fresh runners are the answer.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path

from harness.history.rerun.python_site import PYTHON_NAME

ABSOLUTE = r"(?<![\w.~$/-])/[\w.+@%-]+(?:/[\w.+@%-]+)*"
NAMED = r"[\w.+@%-]+(?:/[\w.+@%-]+)+|[\w+@%-]+\.(?:sh|bash|py|cfg|ini|toml|mk)\b|Makefile\b"
MAX_FILES = 16       # files read for one command
MAX_BYTES = 256_000  # of each
MAX_PATHS = 200      # absolute paths looked at, over all files
VENV_DEPTH = 8       # folders above a path looked at for a virtualenv's pyvenv.cfg


def scripted_pythons(command: list[str] | str, read: Callable[[str], bytes | None]) -> list[str]:
    """The interpreters the files ``command`` names (``read``: a file of the commit by its path, or None) start
    by an absolute path, two levels deep."""
    try:
        words = command if isinstance(command, list) else shlex.split(command)
    except ValueError:
        words = str(command).split()
    todo, looked = list(words), 0
    seen: set[str] = set()
    found: list[str] = []
    for depth in range(2):
        later: list[str] = []
        for word in todo:
            rel = os.path.normpath(word.removeprefix("./"))
            if rel in seen or rel.startswith(("/", "..")) or len(seen) >= MAX_FILES:
                continue
            data = read(rel)
            if data is None:
                continue
            seen.add(rel)
            text = data[:MAX_BYTES].decode("utf-8", "replace")
            for path in re.findall(ABSOLUTE, text)[:MAX_PATHS - looked]:
                looked += 1
                python = _interpreter_at(path)
                if python and python not in found:
                    found.append(python)
            later += re.findall(NAMED, text)[:100] if depth == 0 else []
        todo = later
    return found


def _interpreter_at(path: str) -> str | None:
    """The Python ``path`` names: itself, or the interpreter of the virtualenv it lies in."""
    p = Path(path)
    if PYTHON_NAME.match(p.name) and p.is_file() and os.access(p, os.X_OK):
        return str(p)
    for folder in [p, *p.parents][:VENV_DEPTH]:
        if (folder / "pyvenv.cfg").is_file():
            return next((str(folder / "bin" / n) for n in ("python3", "python") if (folder / "bin" / n).exists()), None)
    return None
