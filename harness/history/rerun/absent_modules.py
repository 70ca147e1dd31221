"""Modules the repository's checkout has and a re-run's commit lacks, made absent for the run.

With an editable install the checkout's import folder stays on the import path behind the re-run's
own tree: a name the commit does not hold (a module added later, or never committed) would be
imported from the checkout. On a fresh runner checked out at the commit it is not found at all; so
the re-run gets, first on its PYTHONPATH, a folder with a stub package of each such name whose
import raises ModuleNotFoundError — what an import of a missing module raises (an `except
ImportError` of the commit's own code behaves as it would there). A submodule of a namespace package
(`acme.calc`, `acme/` without `__init__.py` in both) is stubbed below a namespace folder of the same name
(`acme/calc/__init__.py`, `acme/` left without one: the tree's own portion of `acme` still imports).

The stubs are decided before the commit's build runs; a module the build then generates in the tree
(in place: generated code, an extension module) is the commit's own, and its stub is removed before
the next command (:func:`release`).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

STUB = ("raise ModuleNotFoundError({message!r}, name={name!r})\n")
MESSAGE = ("No module named {name!r} (the commit re-run does not hold it: the repository's checkout has it at "
           "{where}, kept out of the re-run)")


def write(folder: Path, leaked: Mapping[str, str]) -> Path:
    """A stub package in ``folder`` for each name of ``leaked`` (name -> where the checkout has it)."""
    for name, where in leaked.items():
        package = folder.joinpath(*name.split("."))
        package.mkdir(parents=True, exist_ok=True)
        message = MESSAGE.format(name=name, where=where)
        (package / "__init__.py").write_text(STUB.format(message=message, name=name), "utf-8")
    return folder


def release(folder: Path, tree: Sequence[Path]) -> list[str]:
    """Remove the stub of each name a folder of ``tree`` now provides; the names released."""
    released = []
    for stub in sorted(folder.rglob("__init__.py")) if folder.is_dir() else []:
        rel = stub.parent.relative_to(folder)
        if any(_provides(base.joinpath(*rel.parts)) for base in tree):
            shutil.rmtree(stub.parent, ignore_errors=True)
            released.append(".".join(rel.parts))
    return released


def _provides(module: Path) -> bool:
    """Whether a module or package of this name (as a path without suffix) is there."""
    if (module / "__init__.py").is_file():
        return True
    try:
        return any(p.name.split(".", 1)[0] == module.name and p.suffix in (".py", ".so", ".pyd")
                   for p in module.parent.iterdir() if p.is_file())
    except OSError:
        return False
