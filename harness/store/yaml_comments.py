"""The comments of a YAML text, as its parser sees them: a `#` that starts no part of any scalar it read.

The parser drops comments, so a check that reads the values it returns never sees them (F-0117). Where a
`#` is a comment is the parser's to say, not a pattern's: inside a quoted value, a block scalar or a URL's
fragment it is that value's. So the spans of every scalar node (keys and values) are taken from the
composed document, and a `#` outside all of them, at a line's start or after a blank, starts a comment
that runs to the line's end (YAML's rule).
"""

from __future__ import annotations

import bisect
import re

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

_HASH = re.compile(r"(?:^|(?<=[ \t]))#[^\n]*", re.M)


def comments(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """(line, text) of each comment of ``text``, whose scalars cover ``spans`` ((start, end) indexes)."""
    spans = sorted(spans)
    starts = [start for start, _ in spans]
    out = []
    for found in _HASH.finditer(text):
        at = found.start()
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and at < spans[i][1]:
            continue  # inside a scalar: its own value
        out.append((text.count("\n", 0, at) + 1, found.group()))
    return out


def scalar_spans(root: Any) -> list[tuple[int, int]]:
    """(start, end) of every scalar node under the composed ``root`` (None: an empty document), keys included."""
    out, stack = [], [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node.value, str):  # a scalar node's value is its text; a collection's, its children
            out.append((node.start_mark.index, node.end_mark.index))
        elif node.value and isinstance(node.value[0], tuple):  # a mapping: (key, value) pairs
            stack.extend(part for pair in node.value for part in pair)
        else:
            stack.extend(node.value)
    return out
