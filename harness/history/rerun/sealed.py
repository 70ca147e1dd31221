"""The auditing process kept from what its re-runs write (read 164's F-0563).

Each command a re-run starts gets a fresh bytecode cache folder of its own, but the audit's own interpreter read the
`__pycache__` folders beside its sources: a re-run that wrote `harness/cli/__pycache__/hooks.cpython-311.pyc` (its
header matching the source's size and time) had it run when the text report first imported that module, after the
re-runs, and the audit exited 0 over a result that did not reproduce. So before the first re-run starts, the audit
imports every module the harness names anywhere (each of its own, and what each import statement in its source names,
a function's too), and points its own bytecode cache at a fresh folder of its own: a module it still imports later is
compiled from its source there, never read from a cache a re-run could have planted. A changed source is the
fingerprint's to see (:mod:`harness.history.rerun.fingerprint`).
"""

from __future__ import annotations

import ast
import functools
import importlib
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from types import TracebackType


class Sealed:
    """The audit's own imports, done before its first re-run (:meth:`arm`), and its bytecode cache folder, private
    until the audit ends (the in-process test runner runs many commands per process: everything is put back)."""

    def __init__(self) -> None:
        self.folder: str | None = None
        self.prefix: str | None = None

    def arm(self) -> None:
        if self.folder is not None:
            return
        preload()
        self.prefix, self.folder = sys.pycache_prefix, tempfile.mkdtemp(prefix="harness-audit-pycache-")
        sys.pycache_prefix = self.folder

    def __enter__(self) -> Sealed:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.folder is not None:
            sys.pycache_prefix = self.prefix
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def preload() -> None:
    """Import every module :func:`named_modules` lists; one that does not import is left (it would not later)."""
    with warnings.catch_warnings():  # a deprecated name looked up here is the code's to warn of where it uses it
        warnings.simplefilter("ignore")
        _import_each(named_modules())


def _import_each(names: tuple[str, ...]) -> None:
    for name in names:
        if name in sys.modules:
            continue
        parent_name, _, leaf = name.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is None or hasattr(parent, "__path__"):
            try:
                importlib.import_module(name)
                continue
            except Exception:  # an optional module missing here (tomli beside tomllib), or one failing as it would
                pass
        if parent is not None:  # `from concurrent.futures import ThreadPoolExecutor`: an attribute its module loads
            getattr(parent, leaf, None)  # lazily, at first use (a module `__getattr__`), loaded now


@functools.cache  # the installed source's: read once a process (the in-process test runner audits many times)
def named_modules() -> tuple[str, ...]:
    """The harness's own modules (not a `__main__`, which would run the CLI) and every module an import statement in
    their source names, at any depth: `a.b` and, for `from a.b import c`, `a.b.c` too (a submodule, when it is one)."""
    import harness

    root = Path(harness.__file__).parent
    names: dict[str, None] = {}
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        if not module.endswith("__main__"):
            names[module] = None
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for name in _imports(path.read_text("utf-8"), package):
            names.setdefault(name, None)
    return tuple(names)


def _imports(text: str, package: str) -> list[str]:
    """The absolute names of the modules ``text`` imports (a module of ``package``); relative ones resolved."""
    out: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            out += [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")] if base else []
    return out
