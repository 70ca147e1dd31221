"""What a test module or a conftest.py lacked when it could not import, read from pytest's own words.

FAIL_TO_PASS runs the change's tests on the base's source. A test module that imports the change's new code
at its top cannot import there (pytest lists it as one errored entry, named by its module); a conftest.py
that does stops pytest before any case runs ("ImportError while loading conftest", exit 4, no report). Either
way every case under it fails without the change, as long as what was missing is code the change adds: the
adapter checks that against the two source trees. Pure: text in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from harness.core.cases import SEPARATOR, case_id

# Python's two messages for an import that found nothing: a name a module lacks, a module that is not there.
_MISSING = re.compile(r"(?:ImportError|ModuleNotFoundError): (?:cannot import name '([^']+)' from '([^']+)'"
                      r"|No module named '([^']+)')")
_CONFTEST = re.compile(r"ImportError while loading conftest '([^'\n]+)'\.")
# pytest's header of a test module that could not import (the JUnit entry's text, its terminal report).
MODULE_IMPORT = "ImportError while importing test module"


@dataclass(frozen=True)
class Missing:
    """What an import did not find: ``name`` of ``module``, or ``module`` itself (``name`` None)."""

    module: str
    name: str | None

    def __str__(self) -> str:
        return f"`{self.name}` from `{self.module}`" if self.name else f"the module `{self.module}`"


def missing_import(text: str) -> Missing | None:
    """The first import ``text`` (a traceback pytest printed) says failed, or None."""
    m = _MISSING.search(text)
    if m is None:
        return None
    return Missing(m.group(2), m.group(1)) if m.group(1) else Missing(m.group(3), None)


def conftest_failure(output: str) -> tuple[str, str] | None:
    """(the conftest.py's path as pytest printed it, its error's text) when ``output`` shows pytest stopped
    loading one; None otherwise."""
    m = _CONFTEST.search(output)
    return None if m is None else (m.group(1), output[m.end():m.end() + 4000])


def module_files(module: str) -> tuple[str, str]:
    """The two files a dotted module name can be: ``a/b.py`` or ``a/b/__init__.py``."""
    rel = module.replace(".", "/")
    return f"{rel}.py", f"{rel}/__init__.py"


def defines(text: str, name: str) -> bool:
    """Whether ``name`` appears in a module's text as a word (defined, assigned or imported there)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None


def modules_under(folder: str, files: Iterable[str]) -> list[str]:
    """The report's names of the test modules in ``folder`` ("" for the root) among ``files``: what a
    conftest.py there would have set up for (each entry failing stands for every case of its module)."""
    prefix = f"{folder}/" if folder else ""
    names = {case_id(f"{f}{SEPARATOR}x").partition(SEPARATOR)[0] for f in files
             if f.startswith(prefix) and f.endswith(".py") and f.rsplit("/", 1)[-1] not in ("conftest.py", "__init__.py")}
    return sorted(names)
