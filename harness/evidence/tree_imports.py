"""Where a run's Python imports the tree's own top-level names from, and whether that is the tree under test.

Shared by the worktree runs of PASS_TO_PASS and FAIL_TO_PASS (:mod:`harness.evidence.pass_to_pass`) and CI's re-run
(:mod:`harness.history.rerun.isolation`), which ask the same question of the same interpreters: an editable install
(`pip install -e .`: a `.pth` naming the checkout's src/, or a finder a `.pth` installs) points an interpreter at
the repository's checkout, and a run in a worktree of another tree would test the checkout's code (read 85's F-0300,
F-0301). Nothing here imports the tree's code: a probe asks the interpreter where it would find each name.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness import runner
from harness.core import pytest_startup
from harness.errors import HarnessError
from harness.paths import PYTEST_CONFIGS

# Both probes run with `-c`, which puts the working directory first on sys.path: their first statement
# drops that entry before anything is imported (`sys` is built in), so a `json.py` of the folder they
# run in (the checkout's, a commit's) cannot answer for the standard library's.
DROP_CWD = ("import sys\n"
            "if sys.path and sys.path[0] == '':\n"
            "    del sys.path[0]\n")


# Where each name resolves, without importing it: the file (or a namespace package's first folder).
# The working directory's entry is left out: a test runner does not put it first either, and it would
# hide what the import path says. (A dotted name imports its parent: only namespace packages are asked.)
RESOLVE = (DROP_CWD
           + "import importlib.util, json\n"
           "out = {}\n"
           "for name in sys.argv[1:]:\n"
           "    try:\n"
           "        spec = importlib.util.find_spec(name)\n"
           "    except Exception:\n"
           "        continue\n"
           "    if spec is None:\n"
           "        continue\n"
           "    where = list(spec.submodule_search_locations or [])\n"
           "    out[name] = spec.origin if spec.has_location and spec.origin else (where[0] if where else None)\n"
           "print(json.dumps(out))\n")
PYTHON_NAME = re.compile(r"python(\d+(\.\d+)?)?$")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


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


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or under it (both real paths)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def importable(folder: Path, limit: int = 200) -> list[str]:
    """The top-level names ``folder`` provides on an import path: packages (a folder with
    `__init__.py`) and modules (`.py`, extension modules)."""
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
        if entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
            names.append(entry.name)
        elif entry.is_file() and (entry.name.endswith(".py") or entry.name.endswith((".so", ".pyd"))):
            names.append(stem)
    return list(dict.fromkeys(names))[:limit]


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


def last_line(result: runner.RunResult) -> str:
    """What a probe printed last (a sitecustomize may print before it)."""
    lines = result.stdout.head.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else ""


def resolve(program: str, cwd: Path, env: Mapping[str, str], names: Sequence[str], hint: str) -> dict:
    """Where ``program``, started in ``cwd`` with ``env``, finds each of ``names`` (name -> file or folder; a name it
    does not find is left out). HarnessError, with ``hint``, when it cannot say."""
    from harness.core.limits import decode_json

    if not names:
        return {}
    result = runner.run_command([program, "-c", RESOLVE, *names], cwd=cwd, env=dict(env), timeout=60, echo=False)
    try:
        doc = decode_json(last_line(result)) if result.outcome == "passed" else None
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        raise HarnessError(f"{program} could not say where it imports the tree's modules from "
                           f"({result.outcome}, exit {result.exit_code})", hint=hint)
    return doc


# -- the worktree runs of PASS_TO_PASS and FAIL_TO_PASS ---------------------------------------------------------

SRC = pytest_startup.SRC
REMEDY_EDITABLE = ("install the project non-editable (`pip install .`) or only its dependencies in the environment "
                   "the test command runs in: an editable install's `.pth` or finder that puts the checkout ahead of "
                   "PYTHONPATH (a line that inserts it first, a finder placed before the import path) imports the "
                   "checkout's code into every worktree run")


def import_folders(worktree: Path) -> list[Path]:
    """The folders of ``worktree`` a run there imports the project's own code from, first on PYTHONPATH in this order:
    src/ (a src layout), the `pythonpath` folders of the pytest configuration at its root (the base's, in a
    PASS_TO_PASS run: put back), and the root. An editable install names the checkout's src/ in a `.pth`, which comes
    after PYTHONPATH: the worktree's copy is imported, the one measured (read 85's F-0300, F-0301). A folder holding a
    module named like the standard library's (`src/calendar.py`) is left out: first on PYTHONPATH it would shadow the
    standard library, as it does not where the evidence was taken (an editable install puts it after); the check
    that follows the run's environment refuses the run if the project is then imported from the checkout."""
    return [*(f for f in _own_folders(worktree) if not _shadows_stdlib(f)), worktree]


def _own_folders(worktree: Path) -> list[Path]:
    """src/ and the `pythonpath` folders of the root's pytest configuration that ``worktree`` holds."""
    configs = {name: text for name in PYTEST_CONFIGS if (text := _read(worktree / name)) is not None}
    ahead = [worktree / SRC, *(worktree / f for f in pytest_startup.startup(configs)[1])]
    return [f for f in dict.fromkeys(ahead) if f.is_dir() and _inside_tree(f, worktree)]


def refuse_checkout_imports(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str]) -> None:
    """Refuse (HarnessError) when an interpreter the run starts (the command's, and the first `python3` on its PATH)
    would import one of the tree's own names from ``checkout`` instead of ``worktree``: the run would measure the
    checkout's code, not the tree's (read 85's F-0300, F-0301). The names are :func:`probed`'s: the worktree's and the
    checkout's, so a name only the checkout holds (a module the change adds, which the base lacks) is asked about too
    (F-0277). Checked after the environment is made, as CI's re-run checks its own: a finder or a `.pth` line can still
    put the checkout ahead of PYTHONPATH, and a name the worktree lacks falls through to the checkout's folder."""
    names = probed(worktree, checkout)
    if not names:
        return
    word = first_word(command)
    for program in candidates([word] if word else [], env, checkout, every_on_path=False):
        found = outside(resolve(program, worktree, env, names, REMEDY_EDITABLE), checkout, worktree)
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
                       folder: Path) -> dict[str, str]:
    """``env``, with a folder first on PYTHONPATH that makes each name the worktree lacks, but that a run there would
    import from ``checkout`` (a module the change adds, found through an editable install's `.pth`), raise
    ModuleNotFoundError as on a machine holding only the worktree: the change's test then fails on the base, as it
    does in CI, instead of passing "without the change" on the change's own code (F-0277, review 87's third item).
    A name the worktree holds is never hidden: one of those imported from the checkout is refused after this."""
    # The worktree's names in any form, a namespace package at its root too: one it holds is never hidden (F-0305: a
    # root namespace package the change made regular resolved to the checkout, and hiding it failed the base's tests).
    ours = set(_names_of(_own_folders(worktree), worktree)) | set(namespaced(worktree))
    only_theirs = [n for n in probed(worktree, checkout) if n not in ours]
    word = first_word(command)
    found: dict[str, str] = {}
    for program in candidates([word] if word else [], env, checkout, every_on_path=False) if only_theirs else []:
        found |= outside(resolve(program, worktree, env, only_theirs, REMEDY_EDITABLE), checkout, worktree)
    if not found:
        return dict(env)
    for name in found:
        *parents, leaf = name.split(".")
        where = folder.joinpath(*parents)  # a namespace package's portion: no __init__.py, first in its __path__
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{leaf}.py").write_text(HIDDEN.format(message=HIDDEN_WHY.format(name=name), name=name), "utf-8")
    rest = env.get("PYTHONPATH")
    return {**env, "PYTHONPATH": os.pathsep.join([str(folder), *([rest] if rest else [])])}


def _names_of(folders: Sequence[Path], root: Path) -> list[str]:
    """The names ``folders`` and ``root`` provide on an import path, with their namespace packages' modules, dotted."""
    return [*(n for folder in folders for n in [*importable(folder), *namespaced(folder)]), *importable(root)]


def probed(worktree: Path, checkout: Path) -> list[str]:
    """The names a run in ``worktree`` must not import from ``checkout``: those of the worktree's import folders (src/,
    the `pythonpath` folders: also one left off PYTHONPATH for a standard library name, whose package must not come
    from the checkout either) and of the checkout's matching folders (the same ones, and its own configuration's),
    with their namespace packages (a folder without `__init__.py`) and what those hold, dotted (their __path__ spans
    the worktree and the checkout), and the modules and packages of both roots (a flat layout). A name only the
    checkout holds is found there alone, as on a clean machine it is not found at all (F-0277)."""
    ours = _own_folders(worktree)
    mirrored = [checkout / f.relative_to(worktree) for f in ours]
    theirs = [f for f in dict.fromkeys([*mirrored, *_own_folders(checkout)]) if f.is_dir() and _inside_tree(f, checkout)]
    names = [*_names_of(ours, worktree), *_names_of(theirs, checkout)]
    names = [n for n in dict.fromkeys(names) if n.split(".", 1)[0] not in sys.stdlib_module_names]
    # a dotted name's probe imports its parent: only a parent that is a namespace package in every folder is asked
    folders = [*ours, *theirs, worktree, checkout]
    regular = {p for n in names for p in _parents(n)
               if any((f / p.replace(".", os.sep) / "__init__.py").is_file() for f in folders)}
    return [n for n in names if not regular.intersection(_parents(n))]


def namespaced(folder: Path, prefix: str = "", depth: int = 3, limit: int = 200) -> list[str]:
    """The namespace packages ``folder`` holds (a folder named as a module, without `__init__.py`, holding a module
    or a folder) and, dotted, the modules, packages and namespace packages they hold, ``depth`` levels down."""
    out: list[str] = []
    for sub in _namespace_folders(folder):
        name = prefix + sub.name
        out.append(name)
        if depth > 1:
            out += [f"{name}.{n}" for n in importable(sub)] + namespaced(sub, name + ".", depth - 1, limit)
    return list(dict.fromkeys(out))[:limit]


def _namespace_folders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            entries = sorted((e for e in listing if e.is_dir() and IDENTIFIER.match(e.name)
                              and e.name != "__pycache__"), key=lambda e: e.name)
    except OSError:
        return []
    return [Path(e.path) for e in entries
            if not os.path.isfile(os.path.join(e.path, "__init__.py")) and _holds_python(Path(e.path))]


def _holds_python(folder: Path) -> bool:
    try:
        with os.scandir(folder) as listing:
            return any(e.name.endswith((".py", ".so", ".pyd")) if e.is_file() else
                       (e.is_dir() and bool(IDENTIFIER.match(e.name)) and e.name != "__pycache__") for e in listing)
    except OSError:
        return False


def _parents(name: str) -> list[str]:
    """`a.b.c` -> [`a`, `a.b`]."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


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
