"""Modules the repository's checkout has and a re-run's commit lacks, made absent for the run.

With an editable install the checkout's import folder stays on the import path behind the re-run's
own tree: a name the commit does not hold (a module added later, or never committed) would be
imported from the checkout. On a fresh runner checked out at the commit it is not found at all; so
the re-run gets, first on its PYTHONPATH, a folder with a stub package of each such name whose
import raises ModuleNotFoundError — what an import of a missing module raises (an `except
ImportError` of the commit's own code behaves as it would there).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

STUB = ("raise ModuleNotFoundError({message!r}, name={name!r})\n")
MESSAGE = ("No module named {name!r} (the commit re-run does not hold it: the repository's checkout has it at "
           "{where}, kept out of the re-run)")


def write(folder: Path, leaked: Mapping[str, str]) -> Path:
    """A stub package in ``folder`` for each name of ``leaked`` (name -> where the checkout has it)."""
    for name, where in leaked.items():
        package = folder / name
        package.mkdir(parents=True, exist_ok=True)
        message = MESSAGE.format(name=name, where=where)
        (package / "__init__.py").write_text(STUB.format(message=message, name=name), "utf-8")
    return folder
