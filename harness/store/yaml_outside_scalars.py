"""The text of a YAML file outside its scalars: comments, anchors, tags, directives, and the indicators between.

The parser reads all of it and returns none of it as a value, so a check that reads the values alone never sees a
token written there (F-0117, and read 57's F-0121, F-0122). Where a comment may start is the parser's to say (after
a byte-order mark, a lone CR, a flow indicator, a closing quote...), not a pattern's: so nothing is modelled. The
spans of every scalar node (keys and values) are taken from the composed document and blanked; what is left, line
by line, is this text.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any


def outside_scalars(text: str, root: Any) -> list[tuple[int, str]]:
    """(line, what it holds outside every scalar) of each line of ``text`` (composed as ``root``; None: empty)
    that holds more than blanks there."""
    out, pos, kept = [], 0, []
    for start, end in sorted(scalar_spans(root, text)):
        if end <= pos:
            continue  # inside a span already blanked (a key's span within a flow mapping's, say)
        start = max(start, pos)
        kept.append(text[pos:start])
        kept.append("".join(c if c in "\r\n" else " " for c in text[start:end]))  # lines stay where they were
        pos = end
    kept.append(text[pos:])
    for n, line in enumerate("".join(kept).split("\n"), 1):
        if line.strip():
            out.append((n, line))
    return out


def scalar_spans(root: Any, text: str) -> list[tuple[int, int]]:
    """(start, end) of every scalar node under the composed ``root`` of ``text`` (None: an empty document), keys
    included, without the properties before a value (`&anchor`, `!tag`): the node's span starts at them."""
    out, stack = [], [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node.value, str):  # a scalar node's value is its text; a collection's, its children
            out.append((_after_properties(text, node.start_mark.index, node.end_mark.index), node.end_mark.index))
        elif node.value and isinstance(node.value[0], tuple):  # a mapping: (key, value) pairs
            stack.extend(part for pair in node.value for part in pair)
        else:
            stack.extend(node.value)
    return out


# What libyaml breaks a line at (NEL, LS and PS too: read 59's F-0134), and what it skips between tokens (a BOM at a
# line's start among them).
_BREAKS = "\r\n\x85\u2028\u2029"
_BLANKS = " \t\ufeff" + _BREAKS


def _after_properties(text: str, start: int, end: int) -> int:
    """Where the value starts in a scalar node's span ``start``..``end``: the span starts at the node's properties
    (`&anchor`, `!tag`), and takes in a comment after them and, for a block scalar, its header line with the comment
    on it (`|-  # …`) — all of them read, none of them the value (read 58's F-0128)."""
    at = start
    while at < end:
        c = text[at]
        if c in _BLANKS:
            at += 1
        elif c in "&!":
            while at < end and not text[at].isspace():
                at += 1
        elif c == "#":
            at = _line_end(text, at, end)
        elif c in "|>":
            return _line_end(text, at, end)  # the block's header: its indicators, a comment; the value is below
        else:
            break
    return at


def _line_end(text: str, at: int, end: int) -> int:
    while at < end and text[at] not in _BREAKS:
        at += 1
    return at
