"""The `Next:` block as every command prints it — without click, so the fast paths print it too."""

from __future__ import annotations

from collections.abc import Iterable

from harness.core.next_step import NextStep

NEXT_LABEL = "Next:"
_INDENT = 14  # the width of the label column: alternatives line up under the recommended command


def next_lines(steps: Iterable[NextStep]) -> list[str]:
    """The recommended command first, then alternatives, each with why."""
    return [f"{NEXT_LABEL if i == 0 else '':<{_INDENT}}{n.command}  — {n.why}" for i, n in enumerate(steps)]
