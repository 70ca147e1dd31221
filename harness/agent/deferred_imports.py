"""Standard modules the agent's tool guard imports through others but never uses, loaded on first use.

The judge reads a shell line it cannot read plainly with bashlex, whose PLY imports inspect to read
its grammar's source (which :mod:`harness.agent.bashlex_tables` reads from its cache instead), and
copy. inspect, with ast, dis and tokenize under it, cost a judged shell command about as much as the
rest of the rules; nothing on the judge's way reads it. Nor copy (with weakref under it). (The
rules' own classes are :mod:`harness.core.value_class`'s, not dataclasses, which imports both.) :func:`defer` puts such a module into ``sys.modules`` made but not yet
executed: the first read of a name it lacks runs its code, in that very module object, with the
standard loader (as importlib.util.LazyLoader does; that one also runs it when `import` merely looks
at its ``__spec__``, which is all the judge's modules do). Whatever does use it gets the same module,
only later. A module already imported, or one not found, is left as it is.
"""

from __future__ import annotations

import sys
from types import ModuleType

# Imported by the judge's imports, read by none of what it runs (tests/test_guard_judges_a_shell_command_without_heavy_stdlib.py, test_guard_defers_copy_it_never_runs.py):
# inspect, and copy (copy imports weakref).
UNUSED_BY_THE_JUDGE = ("inspect", "copy")


class _Deferred(ModuleType):
    """A module whose code has not run yet: reading a name it lacks runs it, then reads the name."""

    def __getattr__(self, name: str) -> object:
        spec = self.__spec__
        self.__class__ = ModuleType  # type: ignore[assignment]  # a plain module from here on, whatever its code does
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(self)
        return getattr(self, name)


def defer(names: tuple[str, ...] = UNUSED_BY_THE_JUDGE) -> None:
    # The import system's own functions (importlib.machinery and importlib.util would cost imports of their own).
    from _frozen_importlib import module_from_spec
    from _frozen_importlib_external import PathFinder

    for name in names:
        if name in sys.modules:
            continue
        spec = PathFinder.find_spec(name)  # the standard library's own file, as `import` finds it
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            continue
        module = module_from_spec(spec)
        module.__class__ = _Deferred
        sys.modules[name] = module
