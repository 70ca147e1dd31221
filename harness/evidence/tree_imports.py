"""Where a run's Python imports the tree's own top-level names from, and whether that is the tree under test.

Shared by the worktree runs of PASS_TO_PASS and FAIL_TO_PASS (:mod:`harness.evidence.pass_to_pass`) and CI's re-run
(:mod:`harness.history.rerun.isolation`), which ask the same question of the same interpreters: an editable install
(`pip install -e .`: a `.pth` naming the checkout's src/, or a finder a `.pth` installs) points an interpreter at
the repository's checkout, and a run in a worktree of another tree would test the checkout's code (read 85's F-0300,
F-0301). Nothing here imports the tree's code: a probe asks the interpreter where it would find each name, with
no code of the checkout or the worktree running in it (:mod:`harness.evidence.import_probe`, read 89's F-0306).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness.core import pytest_startup
from harness.errors import HarnessError
from harness.evidence import finder_names, import_probe
from harness.evidence.finder_names import inside
from harness.evidence.tree_names import Listings, asked, importable, lacking
from harness.paths import PYTEST_CONFIGS

PYTHON_NAME = re.compile(r"python(\d+(\.\d+)?)?$")


def candidates(programs: Sequence[str], env: Mapping[str, str], checkout: Path, every_on_path: bool = True) -> list[str]:
    """The interpreters re-run commands start: the first `python3` on ``env``'s PATH (what a script
    or a test starts most often), and of each program, the program itself when it is a Python,
    else its virtualenv's Python. A relative program with a slash is looked for in the checkout
    (an ignored `.venv/bin/…`). ``every_on_path``: every other Python on PATH too (CI's re-run, whose
    scripts may start any of them)."""
    path = env.get("PATH", "")
    found = [shutil.which("python3", path=path), *(path_pythons(path) if every_on_path else [])]
    for program in programs:
        where = _located(program, path, checkout)
        if where is None:
            continue
        venv = Path(where).parent.parent
        if PYTHON_NAME.match(os.path.basename(where)):
            found.append(where)
        elif (venv / "pyvenv.cfg").is_file():  # a tool of a virtualenv (pytest, a console script): its Python
            found.append(next((str(venv / "bin" / n) for n in ("python3", "python") if (venv / "bin" / n).exists()), ""))
    return list({_interpreter_key(f): os.path.abspath(f) for f in reversed(found) if f}.values())[::-1]


def path_pythons(path: str) -> list[str]:
    """Every Python a script can start by name from ``path``: `python`, `python3`, `python3.X` in each
    of its folders (a command started through `sh run.sh`, make or tox finds any of them)."""
    out: list[str] = []
    for folder in path.split(os.pathsep):
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        out.extend(os.path.join(folder, n) for n in names if PYTHON_NAME.match(n)
                   and os.path.isfile(os.path.join(folder, n)) and os.access(os.path.join(folder, n), os.X_OK))
    return out


def _interpreter_key(program: str) -> tuple[str, str]:
    """One interpreter under its names: its real file, and its virtualenv (a venv's `python` links to its
    base's binary, but finds other site-packages); /bin/python3 and /usr/bin/python3.11 are one."""
    venv = Path(program).parent.parent
    return (os.path.realpath(venv) if (venv / "pyvenv.cfg").is_file() else "", os.path.realpath(program))


def _located(program: str, path: str, checkout: Path) -> str | None:
    if os.path.isabs(program):
        return program if os.path.exists(program) else None
    if "/" in program:
        return str(checkout / program) if (checkout / program).exists() else None
    return shutil.which(program, path=path)


def outside(resolved: Mapping[str, str | None], checkout: Path, worktree: Path) -> dict[str, str]:
    """Of ``resolved`` (name -> where an interpreter finds it), those found in the checkout
    outside the worktree: the repository's code, but not the commit's."""
    root, tree = os.path.realpath(checkout), os.path.realpath(worktree)
    out = {}
    for name, where in resolved.items():
        if not where:
            continue
        real = os.path.realpath(where)
        if inside(real, root) and not inside(real, tree):
            out[name] = where
    return out


def first_word(command: list[str] | str) -> str | None:
    """The program a command starts (a shell string's first word, when it splits)."""
    if isinstance(command, list):
        return command[0] if command else None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    words = [w for w in words if "=" not in w.split("/")[0]]  # VAR=value before the program
    return words[0] if words else None


def resolve(program: str, worktree: Path, checkout: Path, env: Mapping[str, str], names: Sequence[str], hint: str,
            strict: bool = False) -> dict:
    """Where ``program``, started in ``worktree`` with ``env``, finds each of ``names`` (name -> file or folder; a name
    it does not find is left out), asked with no code of ``checkout`` or ``worktree`` running (:mod:`import_probe`).
    HarnessError, with ``hint``, when it cannot say; and, ``strict`` (the run's final environment), when its start-up
    would run a file of the checkout (a `.pth` or start-up module of its environment imports or runs it)."""
    found, blocked = import_probe.ask(program, worktree, env, import_probe.RESOLVE, names, [checkout, worktree], hint)
    theirs = [path for path in blocked if outside({path: path}, checkout, worktree)]
    if strict and theirs:
        raise HarnessError(f"{program} would run {theirs[0]}, in the repository's checkout, as it starts (a `.pth` file "
                           "or a start-up module of its environment imports or runs it): every run in the worktree "
                           f"{worktree} would run the checkout's code, not the tree's", hint=hint)
    if not isinstance(found, dict):
        raise HarnessError(f"{program} could not say where it imports the tree's modules from", hint=hint)
    return {str(k): (str(v) if v else None) for k, v in found.items()}


# -- the worktree runs of PASS_TO_PASS and FAIL_TO_PASS ---------------------------------------------------------

SRC = pytest_startup.SRC
REMEDY_EDITABLE = ("install the project non-editable (`pip install .`) or only its dependencies in the environment "
                   "the test command runs in: an editable install's `.pth` or finder that puts the checkout ahead of "
                   "PYTHONPATH (a line that inserts it first, a finder placed before the import path) imports the "
                   "checkout's code into every worktree run")


def import_folders(worktree: Path, rels: Sequence[str] = ()) -> list[Path]:
    """The folders of ``worktree`` a run there imports the project's own code from, first on PYTHONPATH in this order:
    src/ (a src layout), the `pythonpath` folders of the pytest configuration at its root (the base's, in a
    PASS_TO_PASS run: put back), the worktree's counterparts of ``rels`` (the checkout's folders the run's interpreter
    imports from: :func:`checkout_folders`), and the root: the folders where PASS_TO_PASS protects a module the change
    adds named like one pytest imports as it starts (read 151's F-0530, 153's F-0540: ``first_on_the_path`` and the
    same interpreter's :func:`said_folders`). An editable install names the checkout's src/ (or lib/) in a `.pth`,
    which comes after PYTHONPATH: the worktree's copy is imported, the one measured (read 85's F-0300, F-0301; read
    89's F-0307). A folder holding a module named like the standard library's (`src/calendar.py`) is left
    out: first on PYTHONPATH it would shadow the standard library, as it does not where the evidence was taken (an
    editable install puts it after); the check that follows the run's environment refuses the run if the project is
    then imported from the checkout."""
    return [*(f for f in folders(worktree, rels) if not _shadows_stdlib(f)), worktree]


def folders(tree: Path, rels: Sequence[str] = ()) -> list[Path]:
    """src/, the `pythonpath` folders of the root's pytest configuration and the folders ``rels`` names (relative,
    not the root) that ``tree`` holds."""
    configs = {name: text for name in PYTEST_CONFIGS if (text := _read(tree / name)) is not None}
    ahead = [*(tree / f for f in pytest_startup.first_on_the_path(configs)), *(tree / r for r in rels)]
    return [f for f in dict.fromkeys(ahead) if f.is_dir() and _inside_tree(f, tree)
            and os.path.realpath(f) != os.path.realpath(tree)]


def checkout_folders(command: list[str] | str, worktree: Path, checkout: Path,
                     env: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
    """(the folders of ``checkout``, relative to it, the run's interpreters import from, the names their finders map
    there), as they say of themselves with ``env`` (:func:`said_folders`, outside the worktree); and each name such a
    finder maps into the checkout, name -> path (`calcpkg` -> `<checkout>/src`: read 97's F-0332)."""
    out: list[str] = []
    names: dict[str, str] = {}
    word = first_word(command)
    for program in candidates([word] if word else [], env, checkout, every_on_path=False):
        said, _ = import_probe.ask(program, worktree, env, import_probe.DESCRIBE, [], [checkout, worktree],
                                   REMEDY_EDITABLE)
        if not isinstance(said, dict):
            raise HarnessError(f"{program} could not say where it imports from", hint=REMEDY_EDITABLE)
        names |= finder_names.mapped_into(said.get("names"), checkout, worktree, own_folders(said, checkout))
        out.extend(said_folders(said, checkout, worktree))
    return list(dict.fromkeys(out)), names


def said_folders(said: Mapping[str, object], checkout: Path, worktree: Path | None = None) -> list[str]:
    """The folders of ``checkout``, relative to it, an interpreter imports from by its description ``said``
    (:data:`import_probe.DESCRIBE`'s answer): each entry of its import path inside the checkout (an editable install's
    `.pth`, whatever the folder is named: `lib/`, `packages/x/src`), and each folder its import finders' modules name
    there (an editable finder's mapping, off the import path). Not its own environment (:func:`own_folders`: a `.venv/`
    in the checkout, a site folder: read 89's F-0307), nor ``worktree`` (a worktree run's; None: no worktree, as
    PASS_TO_PASS asks which of the checkout's folders its run puts first: read 153's F-0540)."""
    root = os.path.realpath(checkout)
    tree = os.path.realpath(worktree) if worktree is not None else None
    own = own_folders(said, checkout)
    out: list[str] = []
    for entry in [*_strings(said.get("path")), *(_import_folder(p) for p in _strings(said.get("finders")))]:
        real = os.path.realpath(entry)
        if inside(real, root) and not (tree and inside(real, tree)) and not any(inside(real, p) for p in own):
            rel = os.path.relpath(real, root)
            if rel != "." and not {"site-packages", "dist-packages"} & set(rel.split(os.sep)):
                out.append(rel)
    return list(dict.fromkeys(out))


def own_folders(said: Mapping[str, object], checkout: Path) -> list[str]:
    """The interpreter's own environment by its description ``said``: its prefixes (real paths), but one that holds
    ``checkout`` (a virtualenv made at the repository's root is not the interpreter's alone)."""
    root = os.path.realpath(checkout)
    own = [os.path.realpath(str(p)) for p in (said.get("prefix"), said.get("base_prefix")) if p]
    return [p for p in own if not inside(root, p)]


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _import_folder(path: str) -> str:
    """The folder on the import path a finder's path stands for: a package's (a folder with `__init__.py`, or that
    file) or a module's parent; a folder that is neither, itself."""
    if os.path.basename(path) == "__init__.py":
        return os.path.dirname(os.path.dirname(path))
    if os.path.isfile(os.path.join(path, "__init__.py")) or os.path.isfile(path):
        return os.path.dirname(path)
    return path


def worktree_env(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str],
                 hidden: Path) -> dict[str, str]:
    """``env`` (the worktree's own folders first on PYTHONPATH: :func:`import_folders`), for a run in ``worktree``
    that imports nothing of ``checkout``: the worktree's counterparts of the checkout's folders the run's interpreter
    imports from put first too (F-0307), each name only the checkout holds hidden (:func:`hide_checkout_only`), and
    refused (HarnessError) when one the worktree holds would still come from the checkout, or the interpreter's
    start-up would run a file of it (:func:`refuse_checkout_imports`). A package an editable finder maps to a folder of
    another name is imported from the worktree's counterpart under its name (:mod:`harness.evidence.finder_names`)."""
    rels, mapped = checkout_folders(command, worktree, checkout, env)
    ahead = [str(f) for f in import_folders(worktree, rels)[:-1] if str(f) not in env.get("PYTHONPATH", "").split(os.pathsep)]
    rest = env.get("PYTHONPATH")
    env = {**env, "PYTHONPATH": os.pathsep.join([*ahead, *([rest] if rest else [])])} if ahead else dict(env)
    env = hide_checkout_only(command, worktree, checkout, env, hidden, rels, mapped)
    refuse_checkout_imports(command, worktree, checkout, env, rels, list(mapped))
    return env


def refuse_checkout_imports(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str],
                            rels: Sequence[str] = (), mapped: Sequence[str] = ()) -> None:
    """Refuse (HarnessError) when an interpreter the run starts (the command's, and the first `python3` on its PATH)
    would import one of the tree's own names from ``checkout`` instead of ``worktree``: the run would measure the
    checkout's code, not the tree's (read 85's F-0300, F-0301). The names are :func:`probed`'s: the worktree's and the
    checkout's, so a name only the checkout holds (a module the change adds, which the base lacks) is asked about too
    (F-0277). Checked after the environment is made, as CI's re-run checks its own: a finder or a `.pth` line can still
    put the checkout ahead of PYTHONPATH, and a name the worktree lacks falls through to the checkout's folder. Refused
    too when the interpreter's start-up would run a file of the checkout (read 89's F-0306). ``mapped``: the names an
    editable finder maps into the checkout, whatever folders hold (read 97's F-0332)."""
    names = list(dict.fromkeys([*probed(worktree, checkout, rels), *mapped]))
    word = first_word(command)
    for program in candidates([word] if word else [], env, checkout, every_on_path=False):
        found = outside(resolve(program, worktree, checkout, env, names, REMEDY_EDITABLE, strict=True), checkout,
                        worktree)
        if found:
            name, where = next(iter(found.items()))
            raise HarnessError(f"{program} imports `{name}` from {where}, in the repository's checkout, not from the "
                               f"worktree {worktree} the run measures: the project is installed editable (or a `.pth` "
                               "names the checkout) ahead of the worktree's folders, or the worktree has no "
                               f"`{name}` of its own, so the run would test the checkout's code", hint=REMEDY_EDITABLE)


# What a name only the checkout holds is, for a worktree run: not found, as on a clean machine (F-0277).
HIDDEN = ("raise ModuleNotFoundError({message!r}, name={name!r})\n")
HIDDEN_WHY = ("No module named {name!r}: the tree under test holds none (the harness hides the copy an editable install "
              "finds in the repository's checkout, as a machine with only this tree would not find one)")


def hide_checkout_only(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str],
                       folder: Path, rels: Sequence[str] = (), mapped: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env``, with a folder first on PYTHONPATH that makes each name the worktree lacks, but that a run there would
    import from ``checkout`` (a module the change adds, found through an editable install's `.pth`), raise
    ModuleNotFoundError as on a machine holding only the worktree: the change's test then fails on the base, as it
    does in CI, instead of passing "without the change" on the change's own code (F-0277, review 87's third item).
    A name the worktree holds is never hidden: one of those imported from the checkout is refused after this. The
    checkout's `sitecustomize` the worktree lacks is one: hidden, it never runs (read 89's F-0306). The same folder links
    each name of ``mapped`` an editable finder maps to a checkout folder of another name to the worktree's counterpart
    (read 97's F-0332: :func:`finder_names.link_renamed`); one whose folder the worktree lacks is hidden."""
    # Only names the worktree lacks in any form (tree_names.lacking), a namespace package at its root too: one it holds
    # is never hidden (F-0305: a root namespace package the change made regular resolved to the checkout, and hiding it
    # failed the base's tests).
    linked = finder_names.link_renamed(folder, mapped or {}, checkout, worktree)
    absent = finder_names.missing(mapped or {}, checkout, worktree)
    only_theirs = [n for n in dict.fromkeys([*lacking(*sides(worktree, checkout, rels), Listings()), *absent])
                   if n.split(".")[0] not in linked]
    word = first_word(command)
    found: dict[str, str] = {}
    for program in candidates([word] if word else [], env, checkout, every_on_path=False) if only_theirs else []:
        found |= outside(resolve(program, worktree, checkout, env, only_theirs, REMEDY_EDITABLE), checkout, worktree)
    if not found and not linked:
        return dict(env)
    for name in found:
        *parents, leaf = name.split(".")
        where = folder.joinpath(*parents)  # a namespace package's portion: no __init__.py, first in its __path__
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{leaf}.py").write_text(HIDDEN.format(message=HIDDEN_WHY.format(name=name), name=name), "utf-8")
    rest = env.get("PYTHONPATH")
    return {**env, "PYTHONPATH": os.pathsep.join([str(folder), *([rest] if rest else [])])}


def probed(worktree: Path, checkout: Path, rels: Sequence[str] = ()) -> list[str]:
    """The names a run in ``worktree`` must not import from ``checkout`` (:func:`tree_names.asked`): those of the
    worktree's import folders (src/, the `pythonpath` folders, the counterparts of ``rels``: also one left off
    PYTHONPATH for a standard library name, whose package must not come from the checkout either, and the root) and of
    the checkout's matching folders (the same ones, and its own configuration's), namespace packages at the roots too
    (F-0308). A name only the checkout holds is found there alone, as on a clean machine it is not found at all
    (F-0277)."""
    return asked(*sides(worktree, checkout, rels), Listings())


def sides(worktree: Path, checkout: Path, rels: Sequence[str] = ()) -> tuple[list[Path], list[Path]]:
    """(the worktree's import folders, the checkout's) that :func:`probed` lists."""
    ours = [*folders(worktree, rels), worktree]
    mirrored = [checkout / f.relative_to(worktree) for f in ours]
    theirs = [f for f in dict.fromkeys([*mirrored, *folders(checkout, rels), checkout])
              if f.is_dir() and _inside_tree(f, checkout)]
    return ours, theirs


def _read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None


def _inside_tree(folder: Path, worktree: Path) -> bool:
    """Whether ``folder`` (a `pythonpath` entry may say `..`) is the worktree's own."""
    return inside(os.path.realpath(folder), os.path.realpath(worktree))


def _shadows_stdlib(folder: Path) -> bool:
    return any(name in sys.stdlib_module_names for name in importable(folder))
