"""The protected suite and PASS_TO_PASS, as pure rules (no file, no git).

The tree holds the tests, their configuration and the scripts behind the evidence commands, and
the agent writes all of them; so what "passing" means is anchored at the task's base commit. The
protected files are those `gate.yaml`'s `suite.paths` match plus every file a configured command
names. PASS_TO_PASS runs the current source with the base's protected files in their place, and
passes only when every case that passed at the base still passes.
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping
from functools import cache

from harness.core.sha256 import sha256
from harness.paths import PYTEST_CONFIGS

# What `harness init` offers a Python project: the test folders it finds, and every file that can
# configure how pytest collects and runs — present or not (a new one can narrow the run as surely).
TEST_FOLDERS = ("tests/**", "test/**")
# The modules pytest collects by its default names, in any folder.
DEFAULT_TEST_FILES = ("**/test_*.py", "**/*_test.py")
# Found elsewhere (a monorepo's packages, tests beside the code): written only when present.
NESTED_TESTS = ("**/tests/**", "**/test/**", *DEFAULT_TEST_FILES)
# pytest's own repository keeps its tests, the helper modules they import and the data they compare against in a
# top-level `testing/` (no `testpaths`): one holding a test module and no `__init__.py` is the tests' folder, protected
# whole as `tests/**` is (read 148's F-0524: the change's `testing/helpers.py` and golden `testing/expected.json` stood
# in for the base's). Not `**/testing/**`: a package's `pkg/testing/` (`numpy.testing`) is code under test.
TESTING = "testing"
CONFIG_FILES = ("**/conftest.py", *PYTEST_CONFIGS)
PYTHON_PATHS = TEST_FOLDERS + CONFIG_FILES
# Protected whatever suite.paths says: files the interpreter runs at start-up (a root sitecustomize.py
# runs before any test and can load a plugin that passes everything) and pytest's own configuration;
# the modules pytest collects by its default names wherever they stand (one can name a plugin in
# `pytest_plugins`: read 67's F-0227). Package metadata too, whose entry points pytest loads plugins
# from (a `[pytest11]` of an `x.dist-info` on the import path: F-0226), by any case of its suffix, as
# importlib.metadata finds it (read 71), and setup.py, whose `pytest11` entry points an install hands pytest as
# pyproject.toml's are (read 133's F-0473); and the bytecode cache of each protected module (:func:`cached_source`).
# pytest reads its configuration from the common folder of the command's paths first, then up: a config file in
# any folder may be the one (read 74's F-0265). pytest's doctest plugin collects `test*.txt` files by default, and a
# doctest runs code in the runner as a test module does (read 81's F-0293).
ALWAYS = ("**/sitecustomize.py", "**/usercustomize.py", "**/*.pth", "**/conftest.py", *(f"**/{n}" for n in PYTEST_CONFIGS),
          "**/setup.py", "**/test_*.py", "**/*_test.py", "**/test*.txt")
_METADATA = (".dist-info", ".egg-info")
# What pytest imports as a test module by its default names (`python_files`), and every conftest.py: each is imported
# with its basedir first on the import path (:func:`basedirs_of_tests`).
_TEST_MODULES = ("**/test_*.py", "**/*_test.py", "**/conftest.py")
# A module at the tree's root is imported in place of one of the same name elsewhere (the tree comes first on
# the import path): one the change adds, named like what pytest imports as it starts (the standard library,
# pytest and its dependencies), is a start-up hook like sitecustomize.py (F-0228, read 71). Any file the
# interpreter imports a module from: NAME.py, .pyc, an extension (`NAME.<tag>.so`), or a package's `__init__`.
_MODULE_FILES = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:/__init__)?(?:\.pyw?|\.pyc|(?:\.[A-Za-z0-9_-]+)?\.(?:so|pyd))")
RUNNER_MODULES = frozenset({"pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging", "exceptiongroup", "tomli",
                            "colorama", "pygments", "attr", "attrs", "xdist", "execnet",
                            "org"})  # copy.py and pickle.py try `org.python.core` as pytest is imported (F-0266)
# Files a command reads without naming them: its program's own configuration.
IMPLICIT = {"make": ("Makefile", "makefile", "GNUmakefile"), "gmake": ("Makefile", "makefile", "GNUmakefile"),
            "npm": ("package.json",), "yarn": ("package.json",), "pnpm": ("package.json",), "nox": ("noxfile.py",),
            "tox": ("tox.ini", "tox.toml", "pyproject.toml"), "just": ("justfile", "Justfile", ".justfile"),
            # a task runner reading pyproject.toml's tool tables (read 132's F-0469)
            "poe": ("pyproject.toml",), "hatch": ("pyproject.toml", "hatch.toml"), "pdm": ("pyproject.toml",)}
# `site` imports these by module name at every start-up, in whatever form the import system loads (read 97's F-0331: a
# `sitecustomize/__init__.py`, `.pyc` or `.<tag>.so` was ordinary source, run by every PASS_TO_PASS run): each of their
# files, in any folder, is a start-up file like `sitecustomize.py` (:func:`is_startup_module`).
STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})
DEFAULT_TEST_TYPE = "unit_test"
# A case that passed at the base and is now any of these is lost (pytest writes xfail as skipped).
LOST = {"failed": "failed", "errors": "errored", "skipped": "skipped or xfailed", None: "missing (not collected)"}
SHOWN_LOST = 200  # cases named in a record; the count is always whole


@cache
def _glob(pattern: str) -> re.Pattern[str]:
    """A gitignore-like glob as a regex over slash-separated paths: `*` and `?` stay inside one
    folder, `**/` is any number of folders (none included), a trailing `/**` everything below."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def matches(path: str, patterns: Iterable[str]) -> bool:
    return any(_glob(p.strip("/")).fullmatch(path) for p in patterns)


def named_files(commands: Iterable[list[str]], files: set[str]) -> set[str]:
    """Files of the tree a configured command names: an argument (or an option's `=value`) that is
    a path of a file the tree holds — a script, a Makefile, a config file. Editing one changes what
    the command means, so it is protected like a test."""
    named = set()
    for argv in commands:
        if argv and "-C" not in argv and "--directory" not in argv:  # another folder: not guessed
            named |= {f for f in IMPLICIT.get(argv[0].rsplit("/", 1)[-1], ()) if f in files}
        for arg in argv:
            for word in (arg, arg.split("=", 1)[-1]):
                path = _normal(word)
                if path in files:
                    named.add(path)
    return named


def _normal(word: str) -> str:
    parts = [p for p in word.split("/") if p not in ("", ".")]
    return "/".join(parts)


def protected(files: Iterable[str], patterns: Iterable[str], named: set[str]) -> set[str]:
    pats = [*patterns, *ALWAYS]

    def one(f: str) -> bool:
        return f in named or matches(f, pats) or is_metadata(f) or is_startup_module(f)

    return {f for f in files if one(f) or ((source := cached_source(f)) is not None and one(source))}


def is_startup_module(path: str) -> bool:
    """Whether ``path`` is a file the interpreter would import as `sitecustomize` or `usercustomize` from the folder it
    stands in: the module, bytecode or extension (`x/sitecustomize.<tag>.so`), or its package's `__init__` in any of
    those forms."""
    return module_name(path) in STARTUP_MODULES


def module_name(path: str) -> str | None:
    """The name the interpreter imports the file ``path`` as from the folder it (or, for a package's `__init__`, its
    folder) stands in — a module, sourceless bytecode, an extension (`calc.<tag>.so`, `calc.pyd`) or a package's
    `__init__` in any of those forms: `calc` — or None for a file no module is imported from."""
    parts = path.split("/")
    tail = "/".join(parts[-2:]) if len(parts) > 1 and parts[-1].startswith("__init__.") else parts[-1]
    m = _MODULE_FILES.fullmatch(tail)
    return m.group(1) if m else None


def is_metadata(path: str) -> bool:
    """Whether ``path`` lies in a package's metadata folder (`x.dist-info/`, `x.EGG-INFO/`: any case)."""
    return any(part.lower().endswith(_METADATA) for part in path.split("/")[:-1])


def cached_source(path: str) -> str | None:
    """The module a `__pycache__` file is the bytecode of (`a/__pycache__/m.cpython-311.pyc` → `a/m.py`), or None
    for a file outside a cache: Python and pytest load a module from its cache whenever the cache's header matches
    the source, so a forged one runs other code than the source (read 67's F-0229)."""
    folder, _, name = path.rpartition("/")
    parent, _, last = folder.rpartition("/")
    if last != "__pycache__" or not name.endswith(".pyc"):
        return None
    module = name.split(".", 1)[0]
    return f"{parent}/{module}.py" if parent else f"{module}.py"


def shadows_what_the_runner_imports(path: str, installed: frozenset[str] = frozenset()) -> bool:
    """Whether ``path`` (from the tree's root) is a module the interpreter would import in place of one pytest
    imports as it starts: the standard library's, pytest's and its dependencies', and ``installed`` (the top-level
    names the interpreter's distributions provide, their pytest plugins among them: read 74's F-0260)."""
    m = _MODULE_FILES.fullmatch(path)
    return m is not None and (m.group(1) in sys.stdlib_module_names or m.group(1) in RUNNER_MODULES
                              or m.group(1) in installed)


def changed_protected(base: Mapping[str, str], current: Mapping[str, str], patterns: list[str],
                      named: set[str], installed: frozenset[str] = frozenset(), folders: Iterable[str] = (),
                      collected: Iterable[str] = ()) -> list[str]:
    """Protected paths (at the base or now) whose blob differs between the two trees: added,
    deleted or edited; and the modules the change adds in place of one pytest imports, at the root, in a
    ``folders`` (pytest's configured `pythonpath`: read 74's F-0261; and src/, which the worktree run puts first on
    PYTHONPATH: :func:`harness.core.pytest_startup.first_on_the_path`, read 151's F-0530, as it puts an editable
    install's `lib/`, read 153's F-0540) or in the basedir of a test
    module or conftest.py
    of the run (:func:`basedirs_of_tests`; ``collected``: the base configuration's `python_files` globs, read 148's
    F-0523); the project's own `statistics.py`, there at the base, is its code (read 71). ``base``/``current``: path ->
    blob id (and mode) of every file."""
    paths = protected(base, patterns, named) | protected(current, patterns, named)
    in_run = {p for p in current if p not in paths} | {p for p in base if p in paths}  # PASS_TO_PASS's worktree
    roots = [f.rstrip("/") + "/" for f in [*folders, *basedirs_of_tests(in_run, collected)] if f]
    paths |= {p for p in current if p not in base and any(
        shadows_what_the_runner_imports(p[len(r):], installed) for r in ["", *roots] if p.startswith(r))}
    return sorted(p for p in paths if base.get(p) != current.get(p))


def basedirs_of_tests(files: Iterable[str], collected: Iterable[str] = ()) -> list[str]:
    """The folders pytest puts first on the import path to import the test modules and conftest.py files of ``files``
    (a tree's paths): in its default `prepend` import mode, the basedir of each (:func:`basedir`) is inserted at
    sys.path[0], ahead of the standard library, so a module there is imported in place of one of its name as a root
    one is (read 148's F-0523: a `src/statistics.py` beside the package `src/calc/` its tests are in replaced the
    oracle the base's test compared with). Test modules are pytest's default names and the modules the ``collected``
    globs (the base configuration's `python_files`) match (:func:`collects`)."""
    listed = set(files)
    return sorted({basedir(f, listed) for f in test_modules(listed, collected)})


def test_modules(files: Iterable[str], collected: Iterable[str] = ()) -> list[str]:
    """The files of ``files`` pytest imports as test modules or conftest.py files: its default names, and the modules
    the ``collected`` globs (the base configuration's `python_files`) match (:func:`collects`)."""
    kinds = [*_TEST_MODULES, *collected]
    return [f for f in files if collects(f, kinds)]


def collects(path: str, globs: Iterable[str]) -> bool:
    """Whether pytest imports the file ``path`` as a test module by one of ``globs`` (`**/check_*`, `**/check_*.py`):
    a `.py` file the glob matches. pytest matches a `python_files` pattern against a `.py` file's name, so one without
    `.py` (`check_*`) collects `checks/check_stats.py` as `check_*.py` does (read 151's F-0531)."""
    return path.endswith(".py") and matches(path, globs)


def package_inits(files: set[str], modules: Iterable[str]) -> set[str]:
    """The `__init__.py` files pytest's `prepend` import mode runs to import each of ``modules`` (test modules and
    conftest.py files) in a tree whose paths are ``files``: one per package it walks up through (a folder holding an
    `__init__.py` whose name is an identifier), the tree's root included, whose name is the checkout's (PASS_TO_PASS's
    worktree is `tree`). pytest runs them before the module, as it runs a conftest.py: a root `__init__.py` the change
    adds made the base's tests `tree.tests.test_stats` and patched the code they check first (read 161's F-0561)."""
    out: set[str] = set()
    for module in modules:
        folder = posixpath.dirname(module)
        while f"{folder}/__init__.py".lstrip("/") in files and (not folder or posixpath.basename(folder).isidentifier()):
            out.add(f"{folder}/__init__.py".lstrip("/"))
            if not folder:
                break
            folder = posixpath.dirname(folder)
    return out


def basedir(path: str, files: set[str]) -> str:
    """The folder pytest's `prepend` import mode inserts on the import path to import the module ``path`` of the tree
    whose paths are ``files`` ('' for its root): the folder above the topmost package holding it, a package being a
    folder with an `__init__.py` whose name is an identifier (as `_pytest.pathlib.resolve_package_path` walks up);
    the module's own folder when that is no package. A tree whose root is a package stops at its root."""
    folder = posixpath.dirname(path)
    while folder and f"{folder}/__init__.py" in files and posixpath.basename(folder).isidentifier():
        folder = posixpath.dirname(folder)
    return folder


def lost_cases(base: Mapping[str, str], run: Mapping[str, str]) -> list[tuple[str, str]]:
    """(case id, how it was lost) for every case that passed at the base and did not pass in ``run``
    (case id -> outcome: passed, failed, errors, skipped), and every case ``run`` has that the base had not and that
    failed or errored. The run holds the base's tests alone (the change's are removed), so a new case is one of
    theirs: a parameter of a base test drawn from the code's own data, which the change added wrong (read 163's
    F-0564); a new case skipped, or passing, is not lost."""
    gone = [(case, LOST[run.get(case)]) for case, outcome in base.items() if outcome == "passed" and run.get(case) != "passed"]
    # A test that already failed at the base fails again under a new id when its parameters' ids differ between runs
    # (an object's repr, a memory address): that is the base's failure, not a new one (read 165's F-0573).
    failing = {_test_of(case) for case, outcome in base.items() if outcome in ("failed", "errors")}
    new = [(case, f"{LOST[outcome]} (a case of the base's tests the base did not have)") for case, outcome in run.items()
           if case not in base and outcome in ("failed", "errors") and _test_of(case) not in failing]
    return sorted([*gone, *new])


def _test_of(case: str) -> str:
    """The test a case id is of, its parameters' id left out (`t::test_ops[mul]` -> `t::test_ops`)."""
    return case.partition("[")[0]


def identity(command: Mapping[str, object], test_type: str, base: str | None, patterns: list[str],
             kind: str = "pass_to_pass") -> dict:
    """What a PASS_TO_PASS run must match to count: the test command's identity, which type it
    is, the base it is measured against and the protected paths. A gate.yaml tightened after the
    run (a path added) makes the record not count until it is run again."""
    return {kind: {"command": dict(command), "of": test_type, "base": base, "paths": sorted(patterns)}}


def digest(ident: Mapping[str, object]) -> str:
    return sha256(json.dumps(ident, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def detected(files: Iterable[str], configs: Mapping[str, str] | None = None) -> list[str]:
    """What `harness init` writes as the protected suite: the test folders of :data:`PYTHON_PATHS`
    that hold a file of ``files``, a top-level `testing/` of tests (:func:`testing_folder`), the tests the project's
    pytest configuration ``configs`` (path -> text) names (:func:`configured_tests`), and every configuration file
    pattern, once any is found."""
    listed = list(files)
    found = [p for p in (*TEST_FOLDERS, *NESTED_TESTS, *CONFIG_FILES) if any(_glob(p).fullmatch(f) for f in listed)]
    folders = [*(p for p in TEST_FOLDERS if p in found), *testing_folder(listed, configs or {})]
    nested = [p for p in NESTED_TESTS if any(_glob(p).fullmatch(f) and not matches(f, folders) for f in listed)]
    named = [p for p in configured_tests(listed, configs or {}) if p not in folders]
    return list(dict.fromkeys([*folders, *nested, *named, *CONFIG_FILES])) if found else []


def testing_folder(files: list[str], configs: Mapping[str, str]) -> list[str]:
    """`testing/**` when ``files`` hold a test module of pytest's default names under a top-level `testing/` that is
    no package or import folder of the code (read 148's F-0524; as :func:`configured_tests` leaves out such a
    `testpaths` folder); else nothing."""
    tests = [f"{TESTING}/{p}" for p in DEFAULT_TEST_FILES]
    if TESTING in _code_folders(configs) or f"{TESTING}/__init__.py" in files or not any(matches(f, tests) for f in files):
        return []
    return [f"{TESTING}/**"]


def _code_folders(configs: Mapping[str, str]) -> set[str]:
    """The folders the code is imported from, never a test folder: pytest's configured `pythonpath` folders and src/."""
    from harness.core import pytest_startup  # not on status's path (as in configured_tests)

    return set(pytest_startup.startup(configs)[1]) | {pytest_startup.SRC}


def configured_tests(files: list[str], configs: Mapping[str, str]) -> list[str]:
    """The tests a project's pytest configuration names that ``files`` holds (read 81's F-0292: `testpaths = checks`,
    `python_files = check_*.py` protected nothing): each `testpaths` folder whole (`checks/**`) unless it is a package
    or a `pythonpath` folder of the code itself (`testpaths = calc` with the tests inside the package: the code would
    be protected, and PASS_TO_PASS would put the base's back), and the files its `python_files`/`--doctest-glob`
    patterns match."""
    from harness.core import pytest_startup  # tomllib loads datetime: not on status's path (tests/test_layering.py)

    code = _code_folders(configs)
    whole = [f"{t}/**" for t in pytest_startup.testpaths(configs) if t and t not in code
             and f"{t}/__init__.py" not in files and any(f.startswith(t + "/") for f in files)]
    return [*whole, *(p for p in pytest_startup.collected(configs) if any(_glob(p).fullmatch(f) for f in files))]


def unprotected_test_folders(files: Iterable[str], paths: Iterable[str], collected: Iterable[str] = ()) -> list[str]:
    """The folders holding a test module (of pytest's default names, or one the ``collected`` globs of the project's
    configuration match, its `python_files`: :func:`collects`, read 151's F-0532) that no path of ``paths`` protects
    whole (a `FOLDER/**`): there only the test modules are protected, not the helpers and data beside them (read 148's
    F-0524), so `harness init` names them for a human to protect rather than leave a layout it does not know half
    protected. The root and a package's folder (an `__init__.py`) hold the code, whose tests beside it are protected
    by their names."""
    listed = set(files)
    whole = [p for p in paths if p.endswith("/**")]
    kinds = [*DEFAULT_TEST_FILES, *collected]
    folders = {f.rpartition("/")[0] for f in listed if collects(f, kinds) and not matches(f, whole)}
    return sorted(d for d in folders if d and f"{d}/__init__.py" not in listed)


def names_tests(paths: Iterable[str]) -> bool:
    """Whether the suite ``paths`` name any test beside pytest's configuration files (what `harness init` may say it
    found: a configuration alone is no test suite, read 81's F-0292)."""
    return any(p not in CONFIG_FILES for p in paths)


def with_suite(gate_text: str, paths: list[str]) -> str:
    """gate.yaml's text with PASS_TO_PASS required and a `suite:` section protecting ``paths``
    (unchanged when there are none: nothing was found to protect)."""
    if not paths:
        return gate_text
    lines = gate_text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("  verification:")) + 1
    lines.insert(at, "    pass_to_pass: required     # the base's passing tests still pass (see suite:)\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("  requirements:")) + 1
    lines.insert(at, "    must_have_tests: true      # a must requirement names the test cases that prove it\n")
    listed = ", ".join(f'"{p}"' for p in paths)
    return "".join(lines).rstrip("\n") + (
        "\n  suite:                       # what defines passing, measured against the task's base commit; adding\n"
        "    # paths tightens, removing one needs `harness approve gate-change`; every file a configured\n"
        "    # evidence command names (a script, a Makefile) is protected too\n"
        f"    paths: [{listed}]\n")


def approval_subject(repository: str, base: str, cases: Iterable[str]) -> bytes:
    """What a `suite-change` approval is bound to (its digest is this text's sha-256): this
    repository (its first root commit), the task's base, and exactly the case ids excused. It
    replays nowhere else: not in another repository, not against another base, not for one more case."""
    return json.dumps({"repository": repository, "base": base, "cases": sorted(set(cases))},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def excuse(lost: list[tuple[str, str]], approved: set[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """(the cases still lost, the cases a human approved letting go) of ``lost``."""
    return [x for x in lost if x[0] not in approved], sorted(c for c, _ in lost if c in approved)


def loosenings(old: Mapping | None, new: Mapping | None) -> list[str]:
    """How gate.yaml's `suite:` section loosens: a path removed, another test type, the section
    gone. Adding paths tightens (no approval)."""
    if not old:
        return []
    if not new:
        return ["suite removed"]
    out = [f"suite.paths {p!r} removed" for p in old.get("paths", []) if p not in new.get("paths", [])]
    before, after = old.get("test_type", DEFAULT_TEST_TYPE), new.get("test_type", DEFAULT_TEST_TYPE)
    if before != after:
        out.append(f"suite.test_type {before} → {after}")
    if old.get("base") != new.get("base"):  # another branch moves every task's base
        out.append(f"suite.base {old.get('base') or '(default)'} → {new.get('base') or '(default)'}")
    return out
