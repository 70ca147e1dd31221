"""Decoding limits for documents the harness reads (pure).

A parser's own limits (Python's recursion limit, its integer digit limit) surface as
RecursionError or ValueError from deep inside whatever walks the document next; these
bounds are checked once, right after decoding, and reported as a fact about the file.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing is not imported: the agent guard reads a config.yaml's depth with this module
if TYPE_CHECKING:
    from collections.abc import Mapping
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


def non_finite(doc: object) -> tuple[str, float] | None:
    """(path as ``a.b[2]``, value) of the first NaN or infinity in ``doc``, or None. YAML reads ``.nan``
    and ``.inf`` as numbers, and a schema's ``"number"`` (or ``exclusiveMinimum: 0``) lets
    them through: a timeout of NaN is no timeout at all (iterative: no recursion)."""
    stack: list[tuple[object, str]] = [(doc, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return path or "top level", node
        if isinstance(node, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(node))))
    return None


def lone_surrogate(doc: object) -> bool:
    """Whether a string (key or value) in ``doc`` holds a lone surrogate: what JSON's ``\\udc80``
    decodes to, which is no text (it cannot be written as UTF-8, signed or printed)."""
    stack: list[object] = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if not is_text(node):
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def is_text(value: object) -> bool:
    """A str that is text: encodable as UTF-8 (no lone surrogate)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999: a JSON number Python reads as infinity
        raise ValueError(f"{text[:40]} is not a finite number")
    return value


def decode_json(text: str | bytes) -> Any:  # any shape: a schema check comes next
    """``json.loads`` whose every failure is a ValueError with a readable message. Stricter than
    Python's: NaN and infinities (not JSON, or a number too big to be anything else) and lone
    surrogates (not text) are refused."""
    import json

    try:
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # JSONDecodeError, or an integer past the digit limit
        raise ValueError(str(exc).split(";")[0][:200]) from None
    if _brackets(text) > MAX_DEPTH and too_deep(doc):
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    if _escapes_surrogate(text) and lone_surrogate(doc):
        raise ValueError("a lone surrogate escape (\\udXXX) is not text")
    return doc


def _escapes_surrogate(text: str | bytes) -> bool:
    # A lone surrogate comes from an escape (UTF-8 bytes cannot encode one) or from a str that
    # already held one: a text with neither skips the walk.
    if isinstance(text, bytes):
        return b"\\ud" in text or b"\\uD" in text
    return "\\ud" in text or "\\uD" in text or not is_text(text)


def _brackets(text: str | bytes) -> int:
    # Each level of JSON nesting opens with a bracket, so a text with no more brackets (in
    # strings or not) than the limit cannot nest deeper: a ledger line skips the walk.
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{")
    return text.count("[") + text.count("{")


def json_kind(value: object) -> str:
    """What a decoded JSON value is, for a message: "a list", "a string", "null"…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    for kind, name in ((dict, "an object"), (list, "a list"), (str, "a string"), (int, "an integer"),
                       (float, "a number")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def json_object(text: str | bytes) -> dict[str, Any]:
    """One JSON object (a line of a .jsonl file, a note, a payload): a ValueError for anything
    else, so no caller calls ``.get`` on a list."""
    doc = decode_json(text)
    if not isinstance(doc, dict):
        raise ValueError(f"not a JSON object but {json_kind(doc)}")
    return doc


def text_field(doc: Mapping[str, Any], key: str) -> str | None:
    """``doc[key]`` when it is text (a str with no lone surrogate), else None: a value of any
    other type is never compared, hashed or printed as if it were one."""
    value = doc.get(key)
    return value if is_text(value) else None


def type_problem(doc: Mapping[str, Any], fields: Mapping[str, tuple[type, ...]]) -> str | None:
    """Why a field of ``doc`` has not its type (``fields``: key -> allowed types; absent or
    null is allowed), or None. A str must be text."""
    for key, types in fields.items():
        value = doc.get(key)
        if value is None:
            continue
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"field {key} is {json_kind(value)}"
        if isinstance(value, str) and not is_text(value):
            return f"field {key} is not text (a lone surrogate)"
    return None
