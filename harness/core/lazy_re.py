"""The `re` module, imported when a pattern is first used rather than when a module that may use one is.

The agent's tool guard judges most command lines without a regular expression: prefilters on plain
text decide first. Importing `re` (with `enum`, its parser and its compiler) cost a `git commit`
judgement a tenth of its time all the same (#28 item 1). ``from harness.core import lazy_re as re``
gives a module the same names, each fetched from `re` on first use and kept: the same functions and
values, so the same answers. mypy reads re's own signatures.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from re import *  # noqa: F403  (what mypy checks the callers against)
    from re import Match, Pattern  # noqa: F401
else:
    def __getattr__(name: str) -> object:
        if name.startswith("__"):  # a module's own dunders (__path__, __spec__...) are not re's to lend
            raise AttributeError(name)
        import re

        value = getattr(re, name)  # AttributeError for a name re lacks, as `re.name` raises
        globals()[name] = value  # kept: the next use is a plain module attribute
        return value
