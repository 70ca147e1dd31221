"""Decoding limits for documents the harness reads (pure).

A parser's own limits (Python's recursion limit, its integer digit limit) surface as
RecursionError or ValueError from deep inside whatever walks the document next; these
bounds are checked once, right after decoding, and reported as a fact about the file.
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 64  # the deepest real document (a finding's content) nests about 6 levels


def too_deep(doc: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``doc`` nests lists/dicts more than ``limit`` levels (iterative: no recursion)."""
    stack: list[tuple[object, int]] = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: list = list(node.values())
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


def decode_json(text: str | bytes) -> Any:  # any shape: a schema check comes next
    """``json.loads`` whose every failure is a ValueError with a readable message."""
    import json

    try:
        doc = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # JSONDecodeError, or an integer past the digit limit
        raise ValueError(str(exc).split(";")[0][:200]) from None
    if _brackets(text) > MAX_DEPTH and too_deep(doc):
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    return doc


def _brackets(text: str | bytes) -> int:
    # Each level of JSON nesting opens with a bracket, so a text with no more brackets (in
    # strings or not) than the limit cannot nest deeper: a ledger line skips the walk.
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{")
    return text.count("[") + text.count("{")
