"""The re-run's tree put where the repository's checkout stood on an interpreter's import path.

An editable install's `.pth` appends the checkout's import folder (`src/`) to sys.path AFTER the
standard library and site-packages: a project module named like a standard one (`src/calendar.py`)
never shadows it where the evidence was taken. Putting the tree's folder first on PYTHONPATH would
(ahead of the standard library), so the re-run gets instead, first on PYTHONPATH, a folder of the
harness's holding only a ``sitecustomize`` that, once `site` has read the `.pth` files:

- replaces each checkout folder on sys.path, where it stands, with the folder of absent-module stubs
  and the tree's own folder (the checkout's is then not on the import path at all, as on a fresh
  runner at the commit: a name or a namespace package's submodule only it has is not found);
- puts them, for a package linked into site-packages from the checkout, before the first site folder
  (after the standard library), and for a finder module's mapping, last (a finder a `.pth` installs
  is asked after every folder of sys.path);
- takes its own folder off sys.path and imports the environment's own ``sitecustomize``, if there is
  one, as the interpreter would have: it is chained, not shadowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

TEMPLATE = '''# Written by the harness for one re-run (harness/history/rerun/tree_site.py): the repository's checkout
# folders on sys.path are replaced, where they stand, by the re-run's tree; then the environment's
# own sitecustomize, if any, runs as it would have.
import os as _os
import sys as _sys

_HERE = {here!r}
_PLACE = {place!r}
_SITES = {sites!r}
_EARLY = {early!r}
_LAST = {last!r}


def _rewritten(path):
    out, early = [], list(_EARLY)
    for entry in path:
        if entry == _HERE:
            continue
        real = _os.path.realpath(entry) if entry else entry
        if early and real in _SITES:
            out.extend(early)
            early = []
        out.extend(_PLACE.get(real, [entry]))
    return out + early + [p for p in _LAST if p not in out]


_sys.path[:] = _rewritten(_sys.path)
_self = _sys.modules.pop(__name__, None)
try:
    import sitecustomize  # noqa: F401  (the environment's own, now that this folder is off sys.path)
except ImportError as _exc:
    if getattr(_exc, "name", None) != "sitecustomize":
        raise
    if _self is not None:
        _sys.modules[__name__] = _self
'''


def write(folder: Path, place: Mapping[str, Sequence[str]], sites: Sequence[str], early: Sequence[str],
          last: Sequence[str]) -> Path:
    """``folder`` with the ``sitecustomize`` that puts the tree in: ``place`` (real path of a checkout
    folder -> the folders standing in its place), ``early`` (put before the first of ``sites``, the
    interpreters' site folders), ``last`` (put at the end)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = TEMPLATE.format(here=str(folder), place={k: list(v) for k, v in place.items()}, sites=sorted(sites),
                           early=list(early), last=list(last))
    (folder / "sitecustomize.py").write_text(text, "utf-8")
    return folder
