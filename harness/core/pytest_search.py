"""Where pytest's search for its configuration ends in a worktree the harness runs a suite in, as a pure rule.

pytest takes as its configuration the first file it accepts in the folder of the command's paths or any folder
above it, and loads the conftest.py files of that file's folder and below. A worktree whose root holds no file it
accepts leaves the search to the folders above — a temporary folder the caller's TMPDIR chose, where a pytest.ini
beside a conftest.py that passes every test made the base's tests pass on broken code (read 81's F-0294). No
folder is out of the agent's reach (the system's temporary folder is anyone's), so the search is ended at the root
instead: an empty stop file is written there when the tree holds no root configuration of its own that every pytest
takes, which is what pytest would have found in a tree with nothing above it (the root as rootdir, no option set).
A configuration the tree holds below the root is found first, as it would be; one at the root that pytest takes is
never shadowed. Pure: texts in.

The rule reads each file as pytest does, never as another reader would: tox.ini and setup.cfg with iniconfig's rules
(below), not configparser's, which saw a `[pytest] x` line as a section where iniconfig reads a value's continuation
and gave up on files iniconfig reads (read 86's F-0297). Where the readers of pytest's versions could differ, or a file
is one this rule cannot read, the stop is written: the worst a needless stop does is an empty configuration for a file
pytest would have stopped the run on, while a missing one lets the folders above choose the configuration.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping

STOP_FILE = "pytest.ini"
_STOP_NOTE = ("# Written by the harness in its temporary worktree: pytest reads no configuration above this folder\n"
              "# (read 81's F-0294). The tree's root holds none of its own that every pytest takes.\n")
STOP_TEXT = _STOP_NOTE + "[pytest]\n"
# The stop where a root pyproject.toml's [tool.pytest] table is read by pytest 9 alone (below): setup.cfg comes after
# pyproject.toml in every pytest's order, so pytest 9 keeps the tree's table, and pytest 8 stops at the stop.
STOP_TEXTS = {STOP_FILE: STOP_TEXT, "setup.cfg": _STOP_NOTE + "[tool:pytest]\n"}
# The files pytest takes at one folder, in the order it tries them: pytest 9 added pytest.toml and .pytest.toml,
# which earlier versions ignore.
_ORDER = {8: ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"),
          9: ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")}
_INI_SECTIONS = {"tox.ini": ("pytest",), "setup.cfg": ("tool:pytest", "pytest")}  # setup.cfg's [pytest] stops the run
_COMMENT_CHARS = "#;"


def stop_file(root: Mapping[str, str]) -> str | None:
    """The file to write at a worktree's root so that pytest's search for its configuration ends there (a key of
    :data:`STOP_TEXTS`), or None when the root's configuration files ``root`` (name -> text) already end it for every
    pytest. The stop is taken by the versions the root leaves searching and comes after the file each other version
    takes, so it shadows none; where no such file can be written, :data:`STOP_FILE` (a stop shadows less than the
    folders above would choose)."""
    first: dict[int, int] = {}  # version -> the place in its order of the first root file it takes
    for name, text in root.items():
        for version in _taken_by(name, text):
            first[version] = min(first.get(version, len(_ORDER[version])), _ORDER[version].index(name))
    if len(first) == len(_ORDER):
        return None
    for stop in STOP_TEXTS:
        if stop not in root and all(_ORDER[v].index(stop) > at for v, at in first.items()):
            return stop
    return STOP_FILE


def _taken_by(name: str, text: str) -> set[int]:
    """The pytest versions (8: before 9, 9: 9 on) that take ``name`` holding ``text`` at a folder."""
    if name in ("pytest.ini", ".pytest.ini"):
        return {8, 9}  # taken whatever it holds, even without a [pytest] section
    if name in ("pytest.toml", ".pytest.toml"):
        return {9}
    if name == "pyproject.toml":
        return _pyproject_taken_by(text)
    if name in _INI_SECTIONS:
        sections = ini_sections(text)
        return {8, 9} if sections is not None and any(s in sections for s in _INI_SECTIONS[name]) else set()
    return set()


def _pyproject_taken_by(text: str) -> set[int]:
    """pytest 8 takes a pyproject.toml with a [tool.pytest.ini_options] table; pytest 9 also one whose [tool.pytest]
    holds keys of its own (its TOML mode). One this TOML reader cannot parse is taken by none: another reader (the
    tomli of the project's pytest) may read it, find no table and search on."""
    try:
        tool = tomllib.loads(text).get("tool")
    except ValueError:  # TOMLDecodeError
        return set()
    table = tool.get("pytest") if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        return set()
    if isinstance(table.get("ini_options"), dict):
        return {8, 9}
    return {9} if any(key != "ini_options" for key in table) else set()


def ini_sections(text: str) -> set[str] | None:
    """The sections iniconfig (pytest's reader of tox.ini and setup.cfg, 1.x and 2.x alike) finds in ``text``, or
    None where it raises its ParseError (pytest stops the run). Line by line as iniconfig's ``_parseline``: a line
    whose first character is `[` is a section when, cut at the first `#` or `;` and stripped on the right, it ends in
    `]` (``[pytest] x`` does not: it is a continuation of the value before it, an error after a section line); a
    comment line starts with `#` or `;` after blanks; an indented line continues a value."""
    sections: set[str] = set()
    names: set[str] | None = None  # the names of the section being read (None: before the first section)
    continues = False  # whether the line before (blanks aside) was a value or its continuation
    for line in text.removeprefix("\N{BYTE ORDER MARK}").splitlines():
        if line.lstrip()[:1] in _COMMENT_CHARS:  # a comment, or a blank line ("" is in any string)
            continue
        line = line.rstrip()
        kind, name = _ini_line(line)
        if kind == "error" or (kind == "continuation" and not continues):
            return None
        if kind == "section":
            if not name or name in sections:  # an empty or repeated section name
                return None
            sections.add(name)
            names, continues = set(), False
        elif kind == "value":
            if names is None or name in names:  # a value before any section, or a name repeated in one
                return None
            names.add(name)
            continues = True
    return sections


def _ini_line(line: str) -> tuple[str, str]:
    """(kind, name) of a non-blank, non-comment line stripped on the right, as iniconfig reads it: ("section",
    its name), ("value", its name), ("continuation", ""), or ("error", "")."""
    if line[0] == "[":
        cut = line
        for c in _COMMENT_CHARS:
            cut = cut.split(c)[0].rstrip()
        return ("section", cut[1:-1]) if cut[-1] == "]" else ("continuation", "")
    if line[0].isspace():
        return "continuation", ""
    name, equals, _ = line.partition("=")
    if not equals or ":" in name:
        name, colon, _ = line.partition(":")
        if not colon:
            return "error", ""
    return "value", name.strip()
