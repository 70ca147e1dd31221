"""The redaction patterns config.yaml adds, checked and compiled (pure).

Every reader of config.yaml refuses a pattern that is not a regex, not only the evidence run that
redacts with it; a read-only command (`harness status`) checks them here without building the
built-in rules of harness.core.redact, which it never applies.
"""

from __future__ import annotations

import re

from harness.errors import HarnessError


def compiled(extra: list[str] | tuple[str, ...]) -> list[re.Pattern[str]]:
    """``extra``'s regexes compiled, in order; a pattern that is no string or no regex is refused."""
    out = []
    for pattern in extra:
        if not isinstance(pattern, str):
            raise HarnessError(
                f"redaction pattern {pattern!r} is not a string",
                hint="list each extra redaction pattern as a quoted regex string",
            )
        try:
            out.append(re.compile(pattern))
        except re.error as exc:
            raise HarnessError(
                f"invalid redaction pattern {pattern!r}: {exc}",
                hint="fix or remove the pattern in the redaction settings of the config",
            ) from None
    return out
