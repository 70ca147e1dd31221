"""pygit2, loaded on first use: the one place that imports it.

Its import (30–50 ms) is most of what a hook pays for a code-only commit, and
:mod:`harness.gitio.fast_path` answers that case without it.
"""

from __future__ import annotations

from types import ModuleType


def _lazy_pygit2() -> ModuleType:
    import importlib.util
    import sys

    if "pygit2" in sys.modules:
        return sys.modules["pygit2"]
    spec = importlib.util.find_spec("pygit2")
    if spec is None or spec.loader is None:
        import pygit2 as real  # let the real import report what is missing

        return real
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["pygit2"] = module
    spec.loader.exec_module(module)
    return module


pygit2 = _lazy_pygit2()
