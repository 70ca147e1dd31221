"""The names an editable finder maps into the repository's checkout, and the tree's folder imported under them (read
97's F-0332).

An editable install whose `package-dir` a `.pth` cannot express (setuptools' `{"calcpkg" = "src"}`) installs a
finder that maps the package's *name* to its folder: `calcpkg` -> `<checkout>/src`. No folder of any tree is named
`calcpkg`, so the names listed from folders (:mod:`harness.evidence.tree_names`) never include it, and a run in a
worktree or a re-run's tree imported it from the checkout through the finder: another tree's code. The interpreter says
which names its finders map (:data:`harness.evidence.import_probe.DESCRIBE`); those mapped into the checkout are asked
about like the rest, and one mapped to a folder of another name is imported from the tree's counterpart of that folder
through a link named as the package, in a folder ahead of the finder (a finder a `.pth` installs is asked after the
import path). Shared by the worktree runs of PASS_TO_PASS and FAIL_TO_PASS and CI's re-run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness.evidence.tree_names import IDENTIFIER


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or under it (both real paths)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def mapped_into(pairs: object, checkout: Path, worktree: Path, own: Sequence[str] = ()) -> dict[str, str]:
    """Of ``pairs`` (the `[name, path]` an interpreter's finders map: its description's `names`), name -> path for
    each path in ``checkout``, outside ``worktree``, the interpreter's own folders ``own`` (a `.venv/` in the
    checkout) and a site folder: the repository's code, reached by name. A name of the standard library is left out
    (the interpreter imports its own first)."""
    root, tree = os.path.realpath(checkout), os.path.realpath(worktree)
    owned = [os.path.realpath(p) for p in own]
    out: dict[str, str] = {}
    for pair in pairs if isinstance(pairs, list) else []:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            continue
        name, where = pair
        real = os.path.realpath(where)
        if (not all(IDENTIFIER.match(part) for part in name.split(".")) or name.split(".")[0] in sys.stdlib_module_names
                or not inside(real, root) or inside(real, tree) or any(inside(real, p) for p in owned)
                or {"site-packages", "dist-packages"} & set(os.path.relpath(real, root).split(os.sep))):
            continue
        out.setdefault(name, where)
    return out


def link_renamed(folder: Path, mapped: Mapping[str, str], checkout: Path, tree: Path) -> list[str]:
    """In ``folder`` (put on the run's import path, ahead of the finders), a link named as each top-level name of
    ``mapped`` (name -> where a finder maps it in ``checkout``) whose folder there is named otherwise, to ``tree``'s
    counterpart of that folder: the run imports the tree's package under the finder's name, and its modules from the
    tree. The names linked. A name mapped to a folder of its own name is the folders' concern (its parent is put in
    the checkout's place); a dotted one, a module file, or one the tree has no folder for is left to the check that
    follows, which refuses it when it still comes from the checkout."""
    root = os.path.realpath(checkout)
    linked: list[str] = []
    for name, where in mapped.items():
        real = os.path.realpath(where)
        if "." in name or not os.path.isdir(real) or os.path.basename(real) == name:
            continue
        ours = tree / os.path.relpath(real, root)
        link = folder / name
        if not ours.is_dir() or os.path.lexists(link):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(ours, link, target_is_directory=True)
        except OSError:
            continue  # no link on this filesystem: the check refuses the run
        linked.append(name)
    return linked


def missing(mapped: Mapping[str, str], checkout: Path, tree: Path) -> list[str]:
    """The top-level names of ``mapped`` whose file or folder in ``checkout`` ``tree`` has no counterpart of: the tree
    holds no such package at all (the change added it), and a machine holding only the tree would not find it, so the
    run is made not to find it either (read 97's F-0332; F-0277). One the tree holds, linked or not, is never listed."""
    root = os.path.realpath(checkout)
    return [name for name, where in mapped.items() if "." not in name
            and not os.path.lexists(tree / os.path.relpath(os.path.realpath(where), root))]
