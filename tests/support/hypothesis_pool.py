"""The same examples for a derandomized property test whatever ran before it in the process.

Hypothesis (6.131 on) mixes into what it draws the literals of the "local" modules loaded when it
draws: every module in ``sys.modules`` outside the standard library and site-packages, test files
excepted. Under pytest-xdist the modules a worker has loaded depend on which tests it was dealt
first, and the dealing depends on the machine's load; so the same derandomized test drew other
examples from run to run, and a full run once failed on an example the test alone never drew.

Pinned here: the pool is the literals of every module of the ``harness`` package, loaded before a
property test's first draw, and nothing else (a checkout a test imports, a module it writes). It
replaces one name of Hypothesis's internals (``providers.is_local_module_file``);
tests/test_property_examples_do_not_depend_on_the_run.py fails when that stops pinning the pool,
rather than the suite silently drawing by the run again.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

from support.paths import ROOT

_PACKAGE = os.path.realpath(ROOT / "harness") + os.sep
_loaded = False


def harness_only(path: str) -> bool:
    """Whether a module file's literals join the pool: only the package under test's."""
    return os.path.realpath(path).startswith(_PACKAGE)


def pin() -> None:
    """Narrow the pool to the package's modules (cheap, at start-up); the package's modules load
    at the first property test (:func:`load_package`)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return  # another Hypothesis: the test of this module says so
    if hasattr(providers, "is_local_module_file"):
        providers.is_local_module_file = harness_only


def load_package() -> None:
    """Import every module of ``harness`` once per process (~0.4 s), so each worker's pool is whole
    before it draws, whatever it ran before."""
    global _loaded
    if _loaded:
        return
    import harness

    for module in pkgutil.walk_packages(harness.__path__, "harness."):
        if not module.name.endswith(".__main__"):  # it runs the CLI
            importlib.import_module(module.name)
    _loaded = True
