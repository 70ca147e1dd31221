"""The names a worktree run asks its interpreter about: what the import folders of the worktree and of the
repository's checkout provide (read 85's F-0300, F-0301; F-0277; read 89's F-0308). CI's re-run asks the same of its
commit's tree and the CI checkout, and makes absent what only the checkout holds (:func:`lacking`): one listing, the
same limits, for both.

Every top-level name of every folder on either side (modules, packages, namespace packages: a folder without
`__init__.py`), the start-up modules `site` imports by name, and, within a namespace package both sides hold (its
`__path__` spans the worktree and the checkout), each module, package or namespace package only the checkout holds,
at any depth, dotted. A namespace package only the checkout holds is asked about by its own name: where its first
portion is the checkout's, hiding that name hides all it holds (where another distribution's portion comes first,
what the checkout's holds is not hidden: a test of the change that imports it passes on the base, and the gate says
so — the careful side). Nothing is left out silently: past :data:`LIMIT` names
or :data:`DEPTH` levels the run is refused, as the harness could not say what it imports.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from harness.errors import HarnessError

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
# `site` imports these by name at every start-up, from wherever the import path finds them first: one only the
# checkout holds would run in every worktree run (F-0306), so they are always asked about.
STARTUP = ("sitecustomize", "usercustomize")
LIMIT = 20_000
DEPTH = 32
# The files the import system loads a module from (source, sourceless bytecode, an extension of any tag), and a
# package's `__init__` in any of them: a `sitecustomize.pyc` or `x/__init__.<tag>.so` is a module as surely (F-0330).
MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")
REMEDY_TOO_MANY = ("install the project non-editable (`pip install .`), or only its dependencies, in the environment the "
                   "test command runs in: the worktree runs then import nothing from the checkout, and nothing needs "
                   "to be asked")


def importable(folder: Path, limit: int = LIMIT) -> list[str]:
    """The top-level names ``folder`` provides on an import path: packages (a folder with an `__init__`) and modules
    (source, bytecode, extension modules)."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return []
    names = []
    for entry in entries:
        stem = entry.name.split(".", 1)[0]
        if not IDENTIFIER.match(stem):
            continue
        if entry.is_dir() and is_package(Path(entry.path)):
            names.append(entry.name)
        elif entry.is_file() and entry.name.endswith(MODULE_SUFFIXES):
            names.append(stem)
    return list(dict.fromkeys(names))[:limit]


def namespaces(folder: Path) -> list[str]:
    """The namespace packages ``folder`` holds: a folder named as a module, without an `__init__`, holding a module or
    a folder."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted((e for e in listing if e.is_dir() and IDENTIFIER.match(e.name)
                              and e.name != "__pycache__"), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries
            if not is_package(Path(e.path)) and _holds_python(Path(e.path))]


def is_package(folder: Path) -> bool:
    """Whether ``folder`` is a regular package: it holds an `__init__` the import system loads, in any form."""
    try:
        with os.scandir(folder) as listing:
            return any(e.name.split(".", 1)[0] == "__init__" and e.name.endswith(MODULE_SUFFIXES) and e.is_file()
                       for e in listing)
    except OSError:
        return False


def _holds_python(folder: Path) -> bool:
    try:
        with os.scandir(folder) as listing:
            return any(e.name.endswith(MODULE_SUFFIXES) if e.is_file() else
                       (e.is_dir() and bool(IDENTIFIER.match(e.name)) and e.name != "__pycache__") for e in listing)
    except OSError:
        return False


class Listings:
    """What each folder provides, read once per question: (its modules and packages, its namespace packages)."""

    def __init__(self) -> None:
        self._seen: dict[Path, tuple[frozenset[str], frozenset[str]]] = {}

    def of(self, folder: Path) -> tuple[frozenset[str], frozenset[str]]:
        if folder not in self._seen:
            self._seen[folder] = (frozenset(importable(folder)), frozenset(namespaces(folder)))
        return self._seen[folder]

    def holds(self, folders: Sequence[Path], name: str) -> bool:
        """Whether one of ``folders`` provides ``name`` (dotted: below its namespace packages) in any form."""
        *parents, leaf = name.split(".")
        return any(leaf in regular or leaf in spaces
                   for regular, spaces in (self.of(f.joinpath(*parents)) for f in folders))


def asked(ours: Sequence[Path], theirs: Sequence[Path], listings: Listings, hint: str = REMEDY_TOO_MANY) -> list[str]:
    """The names a run must not import from the checkout: see the module's docstring. ``ours``: the worktree's import
    folders; ``theirs``: the checkout's. Past the limits, HarnessError with ``hint``."""
    names: list[str] = [*STARTUP]
    for folder in [*ours, *theirs]:
        regular, spaces = listings.of(folder)
        names += sorted(regular | spaces)
    for folder in theirs:
        names += _only_theirs(folder, ours, "", listings, 0, hint)
    names = [n for n in dict.fromkeys(names) if n.split(".", 1)[0] not in sys.stdlib_module_names]
    if len(names) > LIMIT:
        raise HarnessError(f"the worktree and the checkout provide more than {LIMIT} modules: the harness cannot ask "
                           "where a run imports each of them from", hint=hint)
    # a dotted name's probe imports its parent: only a parent that is a namespace package in every folder is asked
    folders = [*ours, *theirs]
    regular_parents = {p for n in names for p in _parents(n)
                       if any(is_package(f / p.replace(".", os.sep)) for f in folders)}
    return [n for n in names if not regular_parents.intersection(_parents(n))]


def lacking(ours: Sequence[Path], theirs: Sequence[Path], listings: Listings, hint: str = REMEDY_TOO_MANY) -> list[str]:
    """Of the names :func:`asked`, those none of ``ours`` provides in any form (a namespace package it holds counts):
    what only the checkout holds, which a run that finds it there imports from the checkout, and which a machine
    holding only the tree would not find at all (F-0277; CI's re-run, which stopped three levels down and at 200
    names: the twin of read 89's F-0308)."""
    return [n for n in asked(ours, theirs, listings, hint) if not listings.holds(ours, n)]


def _only_theirs(folder: Path, ours: Sequence[Path], prefix: str, listings: Listings, depth: int,
                 hint: str) -> list[str]:
    """Below the namespace package ``prefix`` ("" for the top level) of the checkout's import folder ``folder``, the
    names it provides that none of ``ours`` (the worktree's import folders) does, and the same within each namespace
    package both provide; dotted. (Top-level names are asked about anyway.)"""
    if depth > DEPTH:
        raise HarnessError(f"the namespace package `{prefix}` is more than {DEPTH} levels deep: the harness cannot ask "
                           "where a run imports each of its modules from", hint=hint)
    parts = prefix.split(".") if prefix else []
    regular, spaces = listings.of(folder.joinpath(*parts))
    out: list[str] = []
    for name in sorted(regular | spaces):
        dotted = f"{prefix}.{name}" if prefix else name
        if not listings.holds(ours, dotted):
            out += [dotted] if prefix else []
        elif name in spaces and any(name in listings.of(f.joinpath(*parts))[1] for f in ours):
            out += _only_theirs(folder, ours, dotted, listings, depth + 1, hint)
    return out


def _parents(name: str) -> list[str]:
    """`a.b.c` -> [`a`, `a.b`]."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]
