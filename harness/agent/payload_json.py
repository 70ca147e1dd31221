"""A hook's JSON input read as :func:`json.loads` reads it, without importing :mod:`json`.

The agent's guard reads one small JSON object before every tool call. The json package
compiles half a dozen regular expressions as it loads, which is a good part of what answering
a `Read` costs; its C scanner (``_json``), which json.loads uses to read the text anyway, needs
none of them. :func:`loads` hands the text to that scanner configured as json's default decoder
is, and calls json.loads itself whenever the scanner does not read the whole text cleanly
(malformed input, a byte order mark, no C scanner): the same value, or the very same error.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WHITESPACE = " \t\n\r"  # JSON's whitespace: json's decoder skips exactly these around the value
CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _DefaultDecoder:
    """The attributes the C scanner reads of its decoder, as json.JSONDecoder() sets them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = CONSTANTS.__getitem__


def _scanner() -> Any:
    """json's C scanner over the decoder above (False: a Python without json's C accelerator, whose
    json itself then reads the text)."""
    try:
        from _json import make_scanner

        return make_scanner(_DefaultDecoder())  # type: ignore[arg-type]  # it reads these attributes only
    except ImportError:
        return False


_scan: Any = _scanner()  # made once, at import: a C object, cheaper than a check on every call


def loads(text: str) -> Any:
    """``json.loads(text)``: the same value, or the same exception."""
    if _scan:
        start = len(text) - len(text.lstrip(WHITESPACE))
        try:
            value, end = _scan(text, start)
        except Exception:  # not a JSON value here (StopIteration) or malformed: json says how
            value, end = None, -1
        if end >= 0 and not text[end:].strip(WHITESPACE):
            return value
    import json

    return json.loads(text)
