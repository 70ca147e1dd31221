"""Where pytest's search for its configuration ends in a worktree the harness runs a suite in, as a pure rule.

pytest takes as its configuration the first file it accepts in the folder of the command's paths or any folder
above it, and loads the conftest.py files of that file's folder and below. A worktree whose root holds no file it
accepts leaves the search to the folders above — a temporary folder the caller's TMPDIR chose, where a pytest.ini
beside a conftest.py that passes every test made the base's tests pass on broken code (read 81's F-0294). No
folder is out of the agent's reach (the system's temporary folder is anyone's), so the search is ended at the root
instead: an empty `pytest.ini` is written there when the tree holds no root configuration of its own, which is what
pytest would have found in a tree with nothing above it (the root as rootdir, no option set). A configuration the
tree holds below the root is found first, as it would be; one at the root is never shadowed. Pure: texts in.
"""

from __future__ import annotations

import configparser
import tomllib
from collections.abc import Mapping

STOP_FILE = "pytest.ini"
STOP_TEXT = ("# Written by the harness in its temporary worktree: pytest reads no configuration above this folder\n"
             "# (read 81's F-0294). The tree's root holds none of its own.\n[pytest]\n")
# pytest.ini comes before the files pytest reads a section of (pyproject.toml, tox.ini, setup.cfg); pytest 9 reads
# pytest.toml and .pytest.toml first, which earlier versions ignore: beside them the stop changes nothing for the one,
# and stops the search for the others.
_ALWAYS_TAKEN = ("pytest.ini", ".pytest.ini")
_SECTIONS = {"tox.ini": ("pytest",), "setup.cfg": ("tool:pytest", "pytest")}  # setup.cfg's [pytest] stops the run


def takes(name: str, text: str) -> bool:
    """Whether pytest takes the root file ``name`` holding ``text`` as its configuration (its search ends there):
    so too a file it cannot parse, which stops the run."""
    if name in _ALWAYS_TAKEN:
        return True
    try:
        if name == "pyproject.toml":
            table = tomllib.loads(text).get("tool", {}).get("pytest")
            return isinstance(table, dict) and bool(table)  # [tool.pytest.ini_options], or pytest 9's own keys
        if name in _SECTIONS:
            parser = configparser.ConfigParser(interpolation=None, strict=False)
            parser.read_string(text)
            return any(parser.has_section(s) for s in _SECTIONS[name])
    except (ValueError, AttributeError, configparser.Error):  # TOMLDecodeError is a ValueError
        return True
    return False


def stop_file(root: Mapping[str, str]) -> str | None:
    """The file to write at a worktree's root so that pytest's search for its configuration ends there
    (:data:`STOP_FILE`), or None when one of the root's configuration files ``root`` (name -> text) already ends it."""
    return None if any(takes(name, text) for name, text in root.items()) else STOP_FILE
