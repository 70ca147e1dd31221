"""Where a re-run's Python finds the repository's own code, and whether that is the tree under test.

A re-run executes in a temporary worktree of the audited commit, but an interpreter can still be
pointed at the repository's working checkout: an editable install (`pip install -e .`: a `.pth`
path line, a PEP 660 finder module, an `.egg-link`; `flit install --symlink`: a package folder linked
into site-packages; setuptools' `editable_mode=strict`: a `.pth` naming a link tree under the
checkout's ignored `build/` whose files link to its source), any `.pth` file naming a folder of it. With a
`src/` layout nothing else puts the worktree's code first, so `import pkg` would load the
checkout's `src/` — another commit's code — and the verdict would be about that.

This module reads what an interpreter's site folders point at (files only, nothing imported) and
asks an interpreter where it resolves top-level names. Every function takes its folders as
arguments: tests point them at fabricated ones.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from harness.evidence import import_probe

# Shared with the local worktree runs of PASS_TO_PASS and FAIL_TO_PASS (read 85's F-0300, F-0301): the same question,
# asked of the same interpreters.
from harness.evidence.tree_imports import (  # noqa: F401  (re-exported: the re-run's modules use them from here)
    PYTHON_NAME,
    candidates,
    inside,
    outside,
    path_pythons,
)
from harness.evidence.tree_names import IDENTIFIER, importable  # noqa: F401  (importable: re-exported, as above)

SMALL = 1 << 20  # a .pth, finder module or record larger than this is not read
# What an interpreter says of itself: its prefix, its site folders (as `site` computed them at startup) and its import
# path, asked with no code of the checkout running (read 89's F-0306: a sitecustomize of its src/ printed the answer).
PROBE = import_probe.DESCRIBE


@dataclass(frozen=True)
class Python:
    """An interpreter as it describes itself."""

    executable: str
    prefix: str
    base_prefix: str
    sites: tuple[str, ...]   # site-packages folders, the user's included when it is enabled
    path: tuple[str, ...]    # sys.path at startup
    names: tuple[tuple[str, str], ...] = ()  # (name, path) its import finders map (read 97's F-0332)


@dataclass(frozen=True)
class Pointer:
    """A site folder's file that makes the interpreter import from ``target``."""

    file: str     # the .pth, finder module, .egg-link, direct_url.json, or the symlink itself
    target: str   # the folder (or module file) it points at
    kind: str     # path (a .pth line, an egg-link) | finder (a path in a module a .pth imports) | editable | copy
    #               | link (a symlink on the import path: a package folder or module linked in)
    linked: str = ""  # for a link: its path below the import folder it sits in (`calcpkg`, `calcpkg/__init__.py`)


@dataclass(frozen=True)
class Leak:
    """A pointer into the repository's working checkout, at ``rel`` inside it ("" = its root)."""

    pointer: Pointer
    rel: str | None  # the import folder, relative to the checkout (None: a link renamed, no folder stands for it)


def describe(data: Mapping) -> Python | None:
    try:
        sites = [*data["site"], *([data["user"]] if data.get("user") else [])]
        names = tuple((x[0], x[1]) for x in data.get("names") or [] if isinstance(x, list) and len(x) == 2
                      and isinstance(x[0], str) and isinstance(x[1], str))
        return Python(str(data["executable"]), str(data["prefix"]), str(data["base_prefix"]),
                      tuple(str(s) for s in sites), tuple(str(p) for p in data["path"]), names)
    except (KeyError, TypeError):
        return None


def own_python() -> Python:
    """The harness's own interpreter (no process: it is this one), read by the probe's own description
    (:data:`PROBE`), run here as it is run in any other interpreter."""
    import site

    scope: dict = {"sys": sys, "os": os, "site": site}
    exec(PROBE, scope)
    described = describe(scope["answer"])
    assert described is not None  # the description of this very interpreter
    return described


def pointers(sites: Sequence[str | Path]) -> list[Pointer]:
    """What the top level of each site folder points imports at: `.pth` path lines, absolute paths
    in the modules a `.pth` imports (setuptools' and `editables`' finders), `.egg-link`s, and the
    project folder of each distribution installed from a local folder (`direct_url.json`)."""
    out: list[Pointer] = []
    for site in sites:
        folder = Path(site)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = folder / name
            if name.endswith(".pth"):
                out.extend(_pth(folder, path))
            elif name.endswith(".egg-link"):
                first = (_read(path) or "").splitlines()[:1]
                out.extend(Pointer(str(path), os.path.normpath(folder / first[0].strip()), "path") for _ in first
                           if first[0].strip())
            elif name.endswith(".dist-info"):
                out.extend(_direct_url(path))
            elif os.path.islink(path) and IDENTIFIER.match(name.split(".", 1)[0]):  # `flit install --symlink`
                out.append(Pointer(str(path), os.path.realpath(path), "link", name))
    return out


def _pth(site: Path, path: Path) -> list[Pointer]:
    """As `site.addpackage` reads a .pth: a line starting `import` is executed (its module's
    absolute paths, and the line's own, are what it can point at); any other names a folder."""
    out: list[Pointer] = []
    for line in (_read(path) or "").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("import ", "import\t")):
            found = [*_absolute_literals(line), *(p for module in _imported(line)
                                                  for p in _absolute_literals(_read(site / f"{module}.py") or ""))]
            out.extend(Pointer(str(path), p, "finder") for p in dict.fromkeys(found))
        else:
            out.append(Pointer(str(path), os.path.normpath(site / line), "path"))
    return out


def _imported(line: str) -> list[str]:
    """The top-level modules an `import a, b.c; a.install()` line names."""
    names: list[str] = []
    for statement in line.split(";"):
        words = statement.strip().split(None, 1)
        if len(words) == 2 and words[0] == "import":
            names.extend(part.strip().split(" ")[0].split(".")[0] for part in words[1].split(","))
    return [n for n in names if IDENTIFIER.match(n)]


def _absolute_literals(source: str) -> list[str]:
    """The absolute paths written as string literals in Python source (a finder's mapping)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return [m for m in re.findall(r"""['"](/[^'"\n]+)['"]""", source)]
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and n.value.startswith("/") and "\n" not in n.value][:1000]


def _direct_url(dist_info: Path) -> list[Pointer]:
    """A distribution pip installed from a local folder: editable (imports go there) or a copy."""
    try:
        doc = json.loads(_read(dist_info / "direct_url.json") or "null")
        url = urlparse(doc["url"])
        info = doc.get("dir_info")
    except (ValueError, KeyError, TypeError, AttributeError):
        return []
    if url.scheme != "file" or not isinstance(info, dict):
        return []  # an archive or a VCS URL: not a folder of this machine
    kind = "editable" if info.get("editable") else "copy"
    return [Pointer(str(dist_info / "direct_url.json"), os.path.normpath(unquote(url.path)), kind)]


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > SMALL:
            return None
        return path.read_text("utf-8", "replace")
    except OSError:
        return None


def leaks(found: Sequence[Pointer], checkout: Path, worktree: Path, owned: Callable[[str], bool]) -> list[Leak]:
    """The pointers into the checkout (outside the worktree) at a path that is the repository's own
    code: ``owned(rel)`` says so (tracked, or in the commit). An ignored folder inside the checkout
    (a `.venv/` and its site-packages) is the environment, not the repository's code."""
    root, tree = os.path.realpath(checkout), os.path.realpath(worktree)
    out = []
    for p in found:
        target = os.path.realpath(p.target)
        if inside(target, tree) or not inside(target, root):
            continue
        rel = os.path.relpath(target, root)
        rel = "" if rel == "." else rel
        if owned(rel.split(os.sep)[0] if rel else ""):
            out.append(Leak(p, _import_folder(rel, target, p.kind, p.linked)))
        elif p.kind == "path" and os.path.isdir(target):  # an ignored folder: the environment, or a link tree
            links = [Pointer(p.file, real, "link", below) for below, real in linked_into(target, root, tree)]
            out.extend(leaks(links, checkout, worktree, owned))
    return out


def linked_into(folder: str, root: str, tree: str, limit: int = 20_000) -> list[tuple[str, str]]:
    """(path below ``folder``, real target) of each symlink there into ``root`` outside ``tree``: a link
    tree (setuptools' `editable_mode=strict` builds one under the checkout's ignored `build/`, each file a
    link to the checkout's source) imports the checkout's code. At most ``limit`` entries are read."""
    out: list[tuple[str, str]] = []
    for top, dirs, files in os.walk(folder):
        limit -= len(dirs) + len(files)
        for name in [*dirs, *files]:
            path = os.path.join(top, name)
            real = os.path.realpath(path) if os.path.islink(path) else None
            if real is not None and inside(real, root) and not inside(real, tree):
                out.append((os.path.relpath(path, folder), real))
        if limit <= 0:
            break
    return out


def _import_folder(rel: str, target: str, kind: str, linked: str = "") -> str | None:
    """The folder on the import path a pointer stands for: a .pth line's own; for a path in a finder,
    the folder its package (a folder with `__init__.py`, or that file) or module sits in, or the
    folder itself when it is neither (a path a .pth line puts on sys.path); a project's root. For a
    link, the folder its target sits in as the link sits below its import folder (None: renamed)."""
    if kind == "link":
        parts, below = rel.split(os.sep) if rel else [], linked.split(os.sep)
        return os.sep.join(parts[:-len(below)]) if parts[len(parts) - len(below):] == below else None
    if kind != "finder":
        return rel
    if os.path.basename(rel) == "__init__.py":
        return os.path.dirname(os.path.dirname(rel))
    if os.path.isdir(target) and not os.path.isfile(os.path.join(target, "__init__.py")):
        return rel
    return os.path.dirname(rel)

