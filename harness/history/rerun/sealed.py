"""The auditing process kept from what its re-runs write (read 164's F-0563, read 165's F-0572).

Each command a re-run starts gets a fresh bytecode cache folder of its own, but the audit's own interpreter read the
`__pycache__` folders beside its sources: a re-run that wrote `harness/cli/__pycache__/hooks.cpython-311.pyc` (its
header matching the source's size and time) had it run when the text report first imported that module, after the
re-runs, and the audit exited 0 over a result that did not reproduce. A private cache folder for the audit's later
imports was no answer: it stood in the job's temporary folder, where a re-run found it, and a junit report declaring
`encoding="koi8_r"` made the audit import that codec from a `.pyc` planted there (F-0572); a codec's source, a
standard-library file CI's toolcache lets a re-run rewrite, would do the same before the fingerprint is compared. So
before the first re-run starts, the audit imports every module the harness names anywhere (each of its own, and
what each import statement in its source names, a function's too) and every codec, and from then on loads no module
at all: an import of one not loaded yet raises ImportError (:class:`_NoLateImports`), and the audit fails rather
than run code a re-run could have written.
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
import warnings
from pathlib import Path
from types import ModuleType, TracebackType


class Sealed:
    """The audit's own imports, all done before its first re-run (:meth:`arm`), none after it until the audit ends
    (the in-process test runner runs many commands per process: the finder is taken out again)."""

    def __init__(self) -> None:
        self.finder: _NoLateImports | None = None

    def arm(self) -> None:
        if self.finder is not None:
            return
        preload()
        self.finder = _NoLateImports()
        sys.meta_path.insert(0, self.finder)

    def __enter__(self) -> Sealed:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.finder is not None:
            sys.meta_path.remove(self.finder)
            self.finder = None


class _NoLateImports:
    """First on ``sys.meta_path`` while sealed: any module not imported yet is refused, found nowhere."""

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None) -> None:
        raise ImportError(f"harness audit: module {name} was not loaded before the re-runs started, and none is loaded "
                          "after (a re-run could have written it: read 165's F-0572); report this as a bug of the "
                          "harness", name=name)


def preload() -> None:
    """Import every module :func:`named_modules` lists; one that does not import is left (it would not later)."""
    with warnings.catch_warnings():  # a deprecated name looked up here is the code's to warn of where it uses it
        warnings.simplefilter("ignore")
        _import_each(named_modules())
        _import_each(_codecs())


def _codecs() -> tuple[str, ...]:
    """Every codec of the standard library: a codec is imported when text first names it (an XML declaration's
    `encoding=`, a locale), by the codec registry, not by an import statement."""
    import encodings
    import pkgutil

    return tuple(f"encodings.{m.name}" for m in pkgutil.iter_modules(encodings.__path__))


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
