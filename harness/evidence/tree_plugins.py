"""The `pytest11` entry points a worktree run would load from the tree that the tree does not declare, kept out of it.

pytest loads every `pytest11` entry point of the distributions its interpreter finds. Their metadata is what the
environment was installed from: the checkout as the change has it (`pip install -e .` after an edit), not the tree a
PASS_TO_PASS run puts together. An entry point the change added, naming a module of the tree (the code under test),
would load it as a plugin in the run of the base's tests, where a `pytest_runtest_makereport` hook reads every failure
as a pass (read 133's F-0472). So each run in a worktree is asked, before it starts, which entry points its
interpreters would load from the tree (the checkout or the worktree), with no code of either running
(:mod:`harness.evidence.import_probe`); one whose module the worktree's own `pyproject.toml`, `setup.cfg` or
`setup.py` does not declare (at its root, or in the folder its distribution was installed from) is kept out with
`-p no:NAME`: the run loads what the tree it runs would install. What the tree declares is loaded, as the base's
plugins are (their files protected: :mod:`harness.evidence.base_startup`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from harness.core.pytest_startup import entry_point_values, normal_value
from harness.errors import HarnessError
from harness.evidence import import_probe, tree_imports
from harness.evidence.finder_names import inside

DECLARING = ("pyproject.toml", "setup.cfg", "setup.py")
HINT = "the interpreter the test command runs must start with `-S` and read its own metadata"
HINT_EMPTY = ("remove the distribution that declares it from the environment the test command runs in, or give the "
              "entry point a name in the packaging file it was installed from")

# (entry point name, its value, where its module's top-level name is found, its distribution's direct_url) of each
# `pytest11` entry point; the module is looked up, never imported.
PROBE = """
import importlib.metadata, importlib.util, json as _json
answer = []
def _where(name):
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        return None
    if spec is None:
        return None
    where = list(spec.submodule_search_locations or [])
    return spec.origin if spec.has_location and spec.origin else (where[0] if where else None)
try:
    _dists = list(importlib.metadata.distributions())[:5000]
except Exception:
    _dists = []
for _d in _dists:
    try:
        _eps = [e for e in _d.entry_points if e.group == 'pytest11']
        _url = _json.loads(_d.read_text('direct_url.json') or '{}').get('url') if _eps else None
    except Exception:
        continue
    for _e in _eps[:100]:
        _mod = _e.value.split(':', 1)[0].split('[', 1)[0].strip()
        answer.append([_e.name, _e.value, _where(_mod.split('.')[0]) if _mod else None,
                       _url if isinstance(_url, str) else None])
"""


def kept_out(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with `-p no:NAME` added to PYTEST_ADDOPTS for each entry point :func:`undeclared` names."""
    names = undeclared(command, worktree, checkout, env)
    if not names:
        return dict(env)
    words = " ".join(f"-p no:{shlex.quote(name)}" for name in names)
    return {**env, "PYTEST_ADDOPTS": f"{env.get('PYTEST_ADDOPTS', '')} {words}".strip()}


def undeclared(command: list[str] | str, worktree: Path, checkout: Path, env: Mapping[str, str]) -> list[str]:
    """The names of the `pytest11` entry points the run's interpreters (the command's, the first `python3` on its
    PATH) would load from a module of the tree that the worktree does not declare."""
    word = tree_imports.first_word(command)
    names: set[str] = set()
    declared: dict[str | None, set[str]] = {}  # per installed folder: its packaging files are read once a run
    for program in tree_imports.candidates([word] if word else [], env, checkout, every_on_path=False):
        found, _ = import_probe.ask(program, worktree, env, PROBE, [], [checkout, worktree], HINT)
        for item in found if isinstance(found, list) else []:
            if not (isinstance(item, list) and len(item) == 4 and all(isinstance(v, str | None) for v in item)):
                continue
            name, value, where, url = item
            if not (value and where and _in_tree(where, worktree, checkout)) \
                    or normal_value(value) in _memo(declared, url, lambda u=url: _declared(worktree, checkout, u)):
                continue
            if not (name or "").strip():  # `-p no:` names none, and pytest loads it (read 138's F-0488)
                raise HarnessError(f"{program} would load the `pytest11` entry point `{value}` from the tree under an "
                                   "empty name, which the tree does not declare and no `-p no:NAME` keeps out: the run "
                                   "would load a plugin of the change into the base's tests", hint=HINT_EMPTY)
            names.add(name)
    return sorted(names)


def _memo(known: dict[str | None, set[str]], url: str | None, read: Callable[..., set[str]]) -> set[str]:
    if url not in known:
        known[url] = read()
    return known[url]


def _in_tree(path: str, worktree: Path, checkout: Path) -> bool:
    real = os.path.realpath(path)
    return any(inside(real, os.path.realpath(root)) for root in (worktree, checkout))


def _declared(worktree: Path, checkout: Path, url: str | None) -> set[str]:
    """The values (`module` or `module:attribute`) of the `pytest11` entry points the worktree's packaging files
    declare: at its root, and in the folder a distribution installed from a folder of the checkout (or the worktree)
    was installed from. A value, not a module: `calcpkg.plugin:calc` registers the object `calc`, whatever else
    `calcpkg.plugin` is declared as (read 136's F-0484)."""
    folders = [worktree]
    source = _local_folder(url)
    for root in (checkout, worktree) if source else ():
        rel = os.path.relpath(source, os.path.realpath(root))  # type: ignore[arg-type]
        if rel != os.curdir and not rel.startswith(os.pardir):
            folders.append(worktree / rel)
    out: set[str] = set()
    for folder in folders:
        for name in DECLARING:
            text = _read(folder / name)
            out |= set(entry_point_values(name, text)) if text is not None else set()
    return out


def _local_folder(url: str | None) -> str | None:
    parts = urlsplit(url) if url else None
    return os.path.realpath(unquote(parts.path)) if parts is not None and parts.scheme == "file" else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None
