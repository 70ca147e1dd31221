"""What a project's pytest configuration makes pytest import as it starts, read from the configuration's text.

Two settings put the tree's own modules in a run before any test: `addopts = -p NAME` loads the module NAME as a
plugin, as a conftest.py is loaded (read 74's F-0264), and `pythonpath = src` puts a folder first on the import
path, where a module named like one pytest imports is imported in its place (F-0261). Every pytest configuration
file is read (pytest picks one by where the command's paths are; any may be that one): ini-style `[pytest]` or
`[tool:pytest]` sections, and a TOML `[tool.pytest.ini_options]` or `[tool.pytest]` table. Pure: no file, no git.
"""

from __future__ import annotations

import configparser
import posixpath
import shlex
import tomllib
from collections.abc import Iterable, Mapping

_INI_SECTIONS = ("pytest", "tool:pytest")


def settings_of(rel: str, text: str) -> dict[str, list[str]]:
    """``addopts`` and ``pythonpath`` of the configuration file ``rel`` (as words), empty where it has none."""
    name = posixpath.basename(rel)
    try:
        raw = (_toml(text) if name == "pyproject.toml" else _toml_file(text)) if name.endswith(".toml") else _ini(text)
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return {}  # a file pytest cannot read either: it stops the run, and the suite's check says so
    return {key: _words(raw.get(key)) for key in ("addopts", "pythonpath")}


def _ini(text: str) -> dict[str, object]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    section = next((s for s in _INI_SECTIONS if parser.has_section(s)), None)
    return dict(parser[section]) if section else {}


def _toml(text: str) -> dict[str, object]:
    tool = tomllib.loads(text).get("tool", {})
    pytest = tool.get("pytest", {}) if isinstance(tool, dict) else {}
    if not isinstance(pytest, dict):
        return {}
    options = pytest.get("ini_options")
    return options if isinstance(options, dict) else pytest


def _toml_file(text: str) -> dict[str, object]:
    """pytest.toml's and .pytest.toml's settings: a top-level `[pytest]` table (read 76's F-0268)."""
    pytest = tomllib.loads(text).get("pytest", {})
    return pytest if isinstance(pytest, dict) else {}


def _words(value: object) -> list[str]:
    if isinstance(value, str):
        try:
            return shlex.split(value)
        except ValueError:
            return value.split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def plugins(addopts: Iterable[str]) -> list[str]:
    """The modules `-p NAME` / `-pNAME` loads (not `-p no:NAME`, which keeps one out)."""
    words, out = list(addopts), []
    for i, word in enumerate(words):
        name = words[i + 1] if word == "-p" and i + 1 < len(words) else word[2:] if word.startswith("-p") else None
        if name and not name.startswith("no:") and name != "-p":
            out.append(name)
    return out


def startup(configs: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(the module files `-p` names, relative to the tree's root: `NAME.py`, `NAME/__init__.py` under the root and
    each `pythonpath` folder; the `pythonpath` folders) of the configuration files ``configs`` (path -> text)."""
    folders: list[str] = []
    names: list[str] = []
    for rel, text in configs.items():
        found = settings_of(rel, text)
        here = posixpath.dirname(rel)
        folders += [posixpath.normpath(posixpath.join(here, f)) for f in found.get("pythonpath", [])]
        names += plugins(found.get("addopts", []))
    roots = ["", *(f for f in folders if f not in (".", ""))]
    files = [posixpath.join(root, name.replace(".", "/") + tail) for name in names for root in roots
             for tail in (".py", "/__init__.py")]
    return sorted(set(files)), sorted({f for f in folders if f not in (".", "")})
