"""What a test command's runners run, read from their text and never run: the files a Makefile's recipes, an npm
script, a tox or nox session, a justfile or a shell script name, and the modules a runner script imports.

PASS_TO_PASS puts the base's protected files back. A runner put back that runs the change's script, or a helper
module of the change's, would let that code rewrite the report the base's tests made (read 126's F-0450, read 127's
F-0451, F-0452); so what a runner names is protected too. Not the code under test: a module the base's tests import is
what the run measures, and putting the base's back would leave the change untested (read 127's F-0453).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Collection, Iterable

# A runner's own text: what a test command hands its work to. A file without such a name is one when it starts `#!`.
_RUNNER_TEXT = re.compile(r"(?:^|/)(?:(?:GNU)?[Mm]akefile|\.?[Jj]ustfile|package\.json|tox\.(?:ini|toml)|noxfile\.py"
                          r"|pyproject\.toml|hatch\.toml)$"
                          r"|\.(?:sh|bash|zsh|ksh|mk|make|bat|cmd|ps1)$")
# The runner texts a program reads by itself in the folder it runs in (make, just, npm, tox, nox).
_READ_BY_ITSELF = re.compile(r"(?:GNU)?[Mm]akefile|\.?[Jj]ustfile|package\.json|tox\.ini|noxfile\.py")
_WORDS = re.compile(r"""[^\s'"`;&|()<>=,\[\]{}]+""")
# A file of these is code: named by a runner (`python scripts/run.py`, or a tool's argument: `ruff src/calc.py`), it is
# a runner's only where the base's tests do not reach it, by import or by name.
_CODE = re.compile(r"\.(?:pyw?|[cm]?js|ts|rb|pl|php)$")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
SRC = "src"


def is_runner_text(path: str) -> bool:
    """Whether ``path`` is named as a runner's own text (its words name what it runs)."""
    return bool(_RUNNER_TEXT.search(path))


def is_code(path: str) -> bool:
    return bool(_CODE.search(path))


class TreeFiles:
    """The tree's files, found by a word a runner writes: from the root, from the runner's folder, or as the tail of a
    path (`cd scripts && ./test.sh` names scripts/test.sh: which folder a recipe changed into is not followed)."""

    def __init__(self, files: Iterable[str], links: dict[str, str] | None = None) -> None:
        self.files = set(files)
        self.links = links or {}  # a symbolic link's path -> its target, as the base holds them
        self.by_name: dict[str, list[str]] = {}
        self.runners_in: dict[str, list[str]] = {}  # folder -> the runner texts a program reads there by itself
        for path in self.files:
            folder, _, name = path.rpartition("/")
            self.by_name.setdefault(name, []).append(path)
            if _READ_BY_ITSELF.fullmatch(name):
                self.runners_in.setdefault(folder, []).append(path)

    def named(self, word: str, folder: str) -> set[str]:
        """The files ``word`` names, and the runner texts in a folder it names (`make -C ci`, `cd ci && make`: read
        130's F-0464)."""
        parts = [p for p in word.split("/") if p not in ("", ".", "..")]
        if not parts:
            return set()
        path = "/".join(parts)
        spelled = {path, posixpath.join(folder, path)}
        spelled |= {self.resolved(p) for p in spelled}  # through a link the base holds (read 132's F-0468)
        out = {p for p in spelled if p in self.files}
        out |= {p for f in (path, posixpath.join(folder, path)) for p in self.runners_in.get(f, ())}
        return out | {p for p in self.by_name.get(parts[-1], ()) if p == path or p.endswith("/" + path)}

    def resolved(self, path: str) -> str:
        """``path`` with each symbolic link on it followed, as the kernel follows them (a relative target inside the
        tree; one leaving it, or an absolute one, stops there)."""
        for _ in range(40):  # the kernel's own bound on a chain of links
            parts = path.split("/")
            heads = ("/".join(parts[:i]) for i in range(1, len(parts) + 1))
            link = next((head for head in heads if head in self.links), None)
            if link is None:
                return path
            target = self.links[link]
            rest = parts[len(link.split("/")):]
            followed = posixpath.normpath(posixpath.join(posixpath.dirname(link), target, *rest))
            if target.startswith("/") or followed.startswith(".."):
                return path
            path = followed
        return path

    def modules(self, names: Iterable[str], folders: Iterable[str], beside: str, run: bool = False) -> set[str]:
        """The files the modules ``names`` are imported from: `NAME.py` or `NAME/__init__.py` under the root, the
        ``folders`` on the import path, src/ and ``beside`` (a script's own folder is first on its path); ``run``: run
        with `-m`, which runs a package's `__main__.py` too (read 130's F-0463)."""
        roots = dict.fromkeys([beside, "", *folders, SRC])
        tails = (".py", "/__init__.py", "/__main__.py") if run else (".py", "/__init__.py")
        return {path for name in names if _MODULE.fullmatch(name) for root in roots
                for tail in tails if (path := posixpath.join(root, name.replace(".", "/") + tail)) in self.files}


def named_by_runner(text: str, where: str, tree: TreeFiles, folders: Iterable[str]) -> set[str]:
    """The files the runner text ``text`` (the file ``where``; a runner script's too, whose literal paths are words
    like any: read 130's F-0460) names as a word, and the modules it runs with `-m` (`python -m scripts.run_tests`). Code among them is a runner's only when the base's tests do not reach it
    (:func:`harness.evidence.pass_to_pass.run_by_runners` judges that): however the interpreter is started
    (`python -X dev -W error x.py`, `coverage run x.py`, `uv run x.py`: read 129's F-0458), which a word's
    neighbours cannot tell."""
    folder = where.rpartition("/")[0]
    words = _WORDS.findall(text)
    out: set[str] = set()
    for i, word in enumerate(words):
        if i and words[i - 1] == "-m":
            out |= tree.modules([word], folders, folder, run=True)
        out |= tree.named(word, folder)
    return out


def run_modules(text: str) -> list[str]:
    """The modules ``text`` runs with `-m` (a test's `subprocess.run([sys.executable, "-m", "pkg.cli"])`)."""
    words = _WORDS.findall(text)
    return [word for i, word in enumerate(words) if i and words[i - 1] == "-m"]


def imported(text: str) -> set[str] | None:
    """The modules a Python file's text imports, each with the packages above it (`a.b` imports `a` too); None when
    it is not Python that parses. A relative import names its module as written, found beside the file."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            found = [base, *(f"{base}.{alias.name}" if base else alias.name for alias in node.names)]
        else:
            continue
        for name in filter(None, found):
            parts = name.split(".")
            names.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return names


def relative_reached(text: str, where: str, files: Collection[str]) -> set[str]:
    """The files of ``files`` the relative imports of the Python file ``where`` (text ``text``) name: the package the
    dots name (the file's folder for one dot, the one above for two, '' for the root), whose `__init__.py` Python runs
    to import anything in it and the tests take names from (`from .. import z`); the module after the dots (`from
    .mod import y`: `mod.py`, `mod/__init__.py`, with the packages on a dotted name's way); and each name imported that
    is a submodule (`y.py`, `y/__init__.py`) — a literal `importlib.import_module("..core", __package__)` as `from
    ..core import` (read 166's F-0569). :func:`imported` gives `from .. import z` as the bare `z`, found beside the
    file, so a root package's `__init__.py` the tests check was never reached and was put back as the base has it
    (read 162's F-0565). Not the packages above the one named: importing runs them, as pytest's walk does, but the
    tests do not name them; counted, a `from . import helpers` made a root `__init__.py` code under test (F-0567)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for level, module_name, names in _relative_imports(tree):
        package = _dotted_package(where, level)
        if package is None:
            continue
        parts = module_name.split(".") if module_name else []
        module = posixpath.join(package, *parts)
        out |= {posixpath.join(package, *parts[:n], "__init__.py") for n in range(len(parts) + 1)}
        modules = [*([module] if parts else []), *(posixpath.join(module, name) for name in names)]
        out |= {path + tail for path in modules for tail in (".py", "/__init__.py")}
    return {path for path in out if path in files}


def _relative_imports(tree: ast.AST) -> list[tuple[int, str, list[str]]]:
    """(level, module after the dots, names imported) of each relative import of ``tree``: `from ..a import b, c`, and
    a call of `import_module`/`importlib.import_module`/`__import__` with a literal name starting with a dot."""
    out: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.level, node.module or "", [a.name for a in node.names if a.name != "*"]))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and node.args[0].value.startswith("."):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__"):
                name = node.args[0].value
                out.append((len(name) - len(name.lstrip(".")), name.lstrip("."), []))
    return out


def _dotted_package(where: str, level: int) -> str | None:
    """The folder of the package ``level`` dots name from the file ``where``; None beyond the tree's root."""
    folder = posixpath.dirname(where)
    for _ in range(level - 1):
        if not folder:
            return None
        folder = posixpath.dirname(folder)
    return folder
