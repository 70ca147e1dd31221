"""Where the agent guard keeps its caches, and bashlex imported with its cached parser tables when a command
line first needs it.

The cache (bashlex's parser tables: :mod:`harness.agent.bashlex_tables`) sits in this package's
`__pycache__`, trusted as the code beside it is, never in the user's cache folder, which the agent's own tools write. Only os: the guard imports this
before it judges anything, and most command lines it judges are read without bashlex
(:mod:`harness.agent.judge.plain_line`), so bashlex_tables itself is imported only with bashlex.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any


def folder() -> str:
    """The caches' folder: beside this package's bytecode, or the one ``HARNESS_PARSER_TABLES`` names (set
    by whoever starts the guard: tests, benchmarks)."""
    return os.environ.get("HARNESS_PARSER_TABLES") or os.path.join(
        os.path.dirname(os.path.realpath(__file__)), "__pycache__")


def arm(tables: str | os.PathLike[str] | None = None) -> None:
    """Have bashlex, when first imported in this process, imported as :func:`bashlex_tables.load` imports it
    (its tables from the cache in ``tables``, default :func:`folder`). Once bashlex is imported (or is
    already), nothing is left in the way of any import."""
    if "bashlex" in sys.modules or any(type(f) is _OnFirstImport for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _OnFirstImport(tables))


class _OnFirstImport:  # a sys.meta_path finder for `bashlex` itself, removed as it is first asked
    def __init__(self, tables: str | os.PathLike[str] | None) -> None:
        self.tables = tables

    def find_spec(self, name: str, import_path: Any, target: Any = None) -> ModuleSpec | None:
        if name != "bashlex":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        from _frozen_importlib_external import PathFinder  # importlib.machinery's, without importing importlib

        spec = PathFinder.find_spec(name, import_path)
        if spec is None or spec.loader is None:
            return spec
        from harness.agent.bashlex_tables import TableFinder

        finder = TableFinder(folder() if self.tables is None else os.fspath(self.tables))
        loader = spec.loader

        class WithTables:  # bashlex's own loader, with the tables' finder in place while the package runs
            def create_module(self, spec: ModuleSpec) -> ModuleType | None:
                return loader.create_module(spec)

            def exec_module(self, module: ModuleType) -> None:
                sys.meta_path.insert(0, finder)
                try:
                    loader.exec_module(module)
                finally:
                    sys.meta_path.remove(finder)
                    finder.restore()

        spec.loader = WithTables()  # type: ignore[assignment]
        return spec
