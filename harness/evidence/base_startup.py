"""What the base commit makes pytest load or collect, read from the base's files in git and judged by
:mod:`harness.core.pytest_startup`: PASS_TO_PASS puts these files back to the base's version, whatever the change did.

The base's, because the base's configuration, conftest.py files and test modules are what PASS_TO_PASS runs: the
modules they load as plugins (`-p`, the project's `pytest11` entry points, `pytest_plugins`, and a plugin's own
`pytest_plugins` in turn) and the tests they collect beyond pytest's default names.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from harness.core import pytest_startup, suite
from harness.errors import Refused

if TYPE_CHECKING:
    from harness.gitio.git import Git


def at_base(git: Git, base: str | None, base_files: Mapping[str, str], patterns: Iterable[str] = ()) -> pytest_startup.Startup:
    """What the base's files make pytest load or collect; ``patterns``: the suite's paths, whose modules' `pytest_plugins`
    are read with those of the conftest.py files and test modules pytest collects."""
    if base is None:
        return pytest_startup.Startup([], [], [])

    def text(rel: str) -> str | None:
        raw = git.read_at(base, rel)
        return None if raw is None else raw.decode("utf-8", errors="replace")

    configs = base_configs(git, base, base_files)
    files, folders = pytest_startup.startup(configs)
    collected = pytest_startup.collected(configs)
    declaring = [f for f in suite.protected(base_files, [*patterns, *collected], set()) if f.endswith(".py")]
    plugins = with_pytest_plugins(text, [*declaring, *files], folders, set(base_files))
    return pytest_startup.Startup(sorted(set(files) | plugins), folders, collected)


def base_configs(git: Git, base: str | None, base_files: Mapping[str, str]) -> dict[str, str]:
    """The base's pytest configuration files (path -> text), in any folder, and its setup.py files (their `pytest11`
    entry points: read 133's F-0473): what they make pytest import as it starts and collect is the base's, whatever the
    change did to them."""
    if base is None:
        return {}
    configs = {}
    for rel in base_files:
        name = rel.rsplit("/", 1)[-1]
        if (name in suite.PYTEST_CONFIGS or name == "setup.py") and (raw := git.read_at(base, rel)) is not None:
            configs[rel] = raw.decode("utf-8", errors="replace")
    return configs


def with_pytest_plugins(text: Callable[[str], str | None], modules: list[str], folders: list[str],
                        present: set[str]) -> set[str]:
    """The module files the `pytest_plugins` of ``modules`` name, and those their own `pytest_plugins` name in turn
    (pytest loads a plugin's plugins: read 81's F-0289). Refused when one names them in a way only running it would tell:
    what it loads could not be protected."""
    todo, seen, found, unread = list(modules), set(), set(), []
    while todo:
        rel = todo.pop()
        if rel in seen or rel not in present:
            continue
        seen.add(rel)
        names = pytest_startup.plugins_named(text(rel) or "")
        if names is None:
            unread.append(rel)
            continue
        named = pytest_startup.module_files(names, folders, posixpath.dirname(rel))
        found |= set(named)
        todo += named
    if unread:
        raise Refused(f"the base's {', '.join(sorted(unread))} names its plugins in `pytest_plugins` by a value that is "
                      "not a literal: which modules pytest loads from it cannot be read, so they could not be protected",
                      hint='write it as a literal string, list or tuple of module names at the base (`pytest_plugins = '
                           '["pkg.fixtures"]`): the harness reads the base\'s text and never runs its code')
    return found
