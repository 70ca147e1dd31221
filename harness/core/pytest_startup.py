"""What a project's pytest configuration makes pytest import as it starts, read from the configuration's text.

Two settings put the tree's own modules in a run before any test: `addopts = -p NAME` loads the module NAME as a
plugin, as a conftest.py is loaded (read 74's F-0264), and `pythonpath = src` puts a folder first on the import
path, where a module named like one pytest imports is imported in its place (F-0261). Every pytest configuration
file is read (pytest picks one by where the command's paths are; any may be that one): ini-style `[pytest]` or
`[tool:pytest]` sections, and a TOML `[tool.pytest.ini_options]` or `[tool.pytest]` table. Three more ways load a
module of the tree as a plugin (read 81): a conftest.py's or test module's `pytest_plugins` (F-0289) and the
project's own `pytest11` entry point, which an editable install hands pytest (F-0291); and what pytest collects as
tests beyond its default names, `python_files` under `testpaths` (F-0292) and `--doctest-glob` (F-0293), is read
here too. Pure: no file, no git.
"""

from __future__ import annotations

import ast
import configparser
import posixpath
import re
import shlex
import tomllib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

_INI_SECTIONS = ("pytest", "tool:pytest")
_SETTINGS = ("addopts", "pythonpath", "testpaths", "python_files")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# Where a module a plugin name names is found besides the root and `pythonpath`: a src/ layout's folder, which an
# editable install puts on the import path (read 81's F-0291: `-p pkg.mod` and entry points there were missed).
SRC = "src"


class Startup(NamedTuple):
    """What the base makes pytest load or collect, as PASS_TO_PASS protects it."""
    plugin_files: list[str]   # the module files loaded as plugins (`-p`, entry points, `pytest_plugins`)
    folders: list[str]        # the `pythonpath` folders
    collected: list[str]      # globs of the files collected as tests beyond the default names


def settings_of(rel: str, text: str) -> dict[str, list[str]]:
    """``addopts``, ``pythonpath``, ``testpaths`` and ``python_files`` of the configuration file ``rel`` (as words),
    empty where it has none."""
    name = posixpath.basename(rel)
    if name == "setup.py":
        return {}  # read for its entry points alone (:func:`entry_point_plugins`)
    try:
        raw = (_toml(text) if name == "pyproject.toml" else _toml_file(text)) if name.endswith(".toml") else _ini(text)
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return {}  # a file pytest cannot read either: it stops the run, and the suite's check says so
    return {key: _words(raw.get(key)) for key in _SETTINGS}


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


def doctest_globs(addopts: Iterable[str]) -> list[str]:
    """The globs `--doctest-glob PAT` / `--doctest-glob=PAT` makes pytest collect as doctest files (read 81's F-0293)."""
    words, out = list(addopts), []
    for i, word in enumerate(words):
        if word == "--doctest-glob" and i + 1 < len(words):
            out.append(words[i + 1])
        elif word.startswith("--doctest-glob="):
            out.append(word.split("=", 1)[1])
    return [g for g in out if g]


def entry_point_plugins(rel: str, text: str) -> list[str]:
    """The modules the project's own `pytest11` entry points name (the part before `:`), in pyproject.toml
    (`[project.entry-points.pytest11]`, poetry's `[tool.poetry.plugins.pytest11]`), setup.cfg
    (`[options.entry_points] pytest11 =`) or setup.py (a literal `entry_points`): installed editable, as a project's tests are run, pytest loads them as it
    starts (read 81's F-0291). The installed metadata is what pytest reads; the base's declaration is what it was
    installed from."""
    return [value.split(":", 1)[0] for value in entry_point_values(rel, text)]


def entry_point_values(rel: str, text: str) -> list[str]:
    """The `pytest11` entry points' values the packaging file ``rel`` declares, as `module` or `module:attribute`
    (extras and white space left out): what pytest registers is the object the whole value names (read 136's F-0484)."""
    name = posixpath.basename(rel)
    readers = {"pyproject.toml": _toml_entry_points, "setup.cfg": _cfg_entry_points, "setup.py": _setup_py_entry_points}
    try:
        values = readers[name](text) if name in readers else []
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return []
    return [normal_value(v) for v in values]


def normal_value(value: str) -> str:
    """An entry point's value without its extras and white space: `pkg.mod : obj [extra]` -> `pkg.mod:obj`."""
    return "".join(value.split("[", 1)[0].split())


def _setup_py_entry_points(text: str) -> list[str]:
    """setup.py's `entry_points={"pytest11": [...]}` where written as a literal (read 133's F-0473): a computed value
    names none here, and what it installs is then kept out of the worktree runs as undeclared
    (:mod:`harness.evidence.tree_plugins`). The base's code is never run to find out."""
    if "pytest11" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    values: list[str] = []
    for node in ast.walk(tree):
        for keyword in node.keywords if isinstance(node, ast.Call) else ():
            if keyword.arg != "entry_points":
                continue
            try:
                points = ast.literal_eval(keyword.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            group = points.get("pytest11") if isinstance(points, dict) else None
            lines = group.splitlines() if isinstance(group, str) else group if isinstance(group, list | tuple) else []
            values += [line.split("=", 1)[1] for line in lines if isinstance(line, str) and "=" in line]
    return values


def _toml_entry_points(text: str) -> list[str]:
    doc = tomllib.loads(text)
    project, tool = doc.get("project", {}), doc.get("tool", {})
    tables = [project.get("entry-points", {}) if isinstance(project, dict) else {},
              tool.get("poetry", {}).get("plugins", {}) if isinstance(tool, dict) and isinstance(tool.get("poetry"), dict)
              else {}]
    groups = [t.get("pytest11") for t in tables if isinstance(t, dict)]
    return [v for g in groups if isinstance(g, dict) for v in g.values() if isinstance(v, str)]


def _cfg_entry_points(text: str) -> list[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    if not parser.has_option("options.entry_points", "pytest11"):
        return []
    lines = parser.get("options.entry_points", "pytest11").splitlines()
    return [line.split("=", 1)[1] for line in lines if "=" in line]


def plugins_named(text: str) -> list[str] | None:
    """The modules a conftest.py or test module names in `pytest_plugins`, which pytest imports as plugins (read 81's
    F-0289): a literal string, list or tuple of strings assigned at the module's top. None when the module binds or
    uses the name any other way (a computed value, `+=`, an import, `globals()[...]`, a rebinding in a block): only
    running the module would tell, and the base's code is not run to find out. An unparsable module names none (pytest
    cannot import it either)."""
    if "pytest_plugins" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names: list[str] = []
    read: set[int] = set()
    for node in tree.body:
        target, value = _top_level_assignment(node)
        if target is not None and (values := _strings(value)) is not None:
            names += values
            read.add(id(target))
    return None if any(_mentions(n) and id(n) not in read for n in ast.walk(tree)) else names


def _top_level_assignment(node: ast.stmt) -> tuple[ast.Name | None, ast.expr | None]:
    target: ast.expr
    value: ast.expr | None
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
    elif isinstance(node, ast.AnnAssign):
        target, value = node.target, node.value
    else:
        return None, None
    return (target, value) if isinstance(target, ast.Name) and target.id == "pytest_plugins" else (None, None)


def _strings(value: ast.expr | None) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.List | ast.Tuple):
        strings = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return strings if len(strings) == len(value.elts) else None
    return None


def _mentions(node: ast.AST) -> bool:
    """Whether ``node`` names `pytest_plugins`: as a variable, an attribute, a definition, an imported name, a string."""
    name = "pytest_plugins"
    if isinstance(node, ast.alias):
        return (node.asname or node.name.rsplit(".", 1)[-1]) == name
    if isinstance(node, ast.Global | ast.Nonlocal):
        return name in node.names
    field = _SPELLED.get(type(node))
    return field is not None and getattr(node, field) == name


_SPELLED: dict[type, str] = {ast.Name: "id", ast.Attribute: "attr", ast.FunctionDef: "name", ast.AsyncFunctionDef: "name",
                             ast.ClassDef: "name", ast.ExceptHandler: "name", ast.Constant: "value"}


def module_files(names: Iterable[str], folders: Iterable[str], beside: str = "") -> list[str]:
    """The files the modules ``names`` are imported from (`NAME.py`, `NAME/__init__.py`): under the tree's root, the
    `pythonpath` ``folders``, src/ and ``beside`` (the folder of the file naming them, which pytest's default import
    mode puts on the path for a conftest.py or test module)."""
    roots = list(dict.fromkeys([beside, "", *folders, SRC]))
    return sorted({posixpath.join(root, name.replace(".", "/") + tail) for name in names if _MODULE.fullmatch(name)
                   for root in roots for tail in (".py", "/__init__.py")})


def startup(configs: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(the module files `-p` and the project's `pytest11` entry points name, relative to the tree's root: `NAME.py`,
    `NAME/__init__.py` under the root, each `pythonpath` folder and src/; the `pythonpath` folders) of the
    configuration files ``configs`` (path -> text)."""
    folders: list[str] = []
    names: list[str] = []
    beside: set[str] = set()
    for rel, text in configs.items():
        found = settings_of(rel, text)
        here = posixpath.dirname(rel)
        folders += [posixpath.normpath(posixpath.join(here, f)) for f in found.get("pythonpath", [])]
        names += plugins(found.get("addopts", [])) + entry_point_plugins(rel, text)
        if here:  # a package of a subfolder, installed from there: its modules are beside it (read 136's F-0485)
            beside.update(module_files(entry_point_plugins(rel, text), [posixpath.join(here, SRC)], here))
    kept = sorted({f for f in folders if f not in (".", "")})
    return sorted(set(module_files(names, kept)) | beside), kept


def first_on_the_path(configs: Mapping[str, str]) -> list[str]:
    """The folders, relative to the tree's root, a worktree run of the harness puts first on PYTHONPATH, ahead of the
    standard library and site-packages (:func:`harness.evidence.tree_imports.folders`): src/ and the `pythonpath`
    folders of the configuration files ``configs``. With the counterparts of the checkout's folders the run's
    interpreter imports from (an editable install's `lib/`, which only asking that interpreter finds:
    :func:`harness.evidence.runner_names.runner_folders`, read 153's F-0540), one list for the run and for what
    PASS_TO_PASS protects: a module the change adds in one of them, named like one pytest imports as it starts, is
    imported in its place (read 151's F-0530: a `src/iniconfig.py`)."""
    return list(dict.fromkeys([SRC, *startup(configs)[1]]))


def testpaths(configs: Mapping[str, str]) -> list[str]:
    """The `testpaths` folders of the configuration files ``configs``, relative to the tree's root (each is relative to
    its file's folder, pytest's rootdir)."""
    return sorted({_under(posixpath.dirname(rel), p) for rel, text in configs.items()
                   for p in settings_of(rel, text).get("testpaths", [])})


def collected(configs: Mapping[str, str]) -> list[str]:
    """Globs of the files the configurations make pytest collect as tests beyond its default names (`test_*.py`,
    `*_test.py` and `test*.txt`, protected anywhere): each `python_files` and `--doctest-glob` pattern, under each
    `testpaths` folder, or anywhere below the file's folder when it names none (read 81's F-0292, F-0293). A pattern
    naming every module (`*.py`) is left out: it would take in the code under test, and PASS_TO_PASS, putting the
    base's back, would measure nothing (suite.paths can name such a project's test folders)."""
    out: set[str] = set()
    for rel, text in configs.items():
        found = settings_of(rel, text)
        here = posixpath.dirname(rel)
        folders = [_under(here, p) for p in found.get("testpaths", [])] or [here]
        globs = [*found.get("python_files", []), *doctest_globs(found.get("addopts", []))]
        out |= {_below(folder, g) for folder in folders for g in globs if not _names_every_module(g)}
    return sorted(out)


def _under(here: str, path: str) -> str:
    joined = posixpath.normpath(posixpath.join(here, path))
    return "" if joined == "." else joined


def _below(folder: str, glob: str) -> str:
    return f"{folder}/**/{glob}" if folder else f"**/{glob}"


def _names_every_module(glob: str) -> bool:
    """Whether ``glob`` matches any file name of its kind: nothing of it is literal but the `.py` or the dot."""
    return re.sub(r"\[[^\]]*\]|[*?.]|py$|pyw$", "", glob.rsplit("/", 1)[-1]) == ""
