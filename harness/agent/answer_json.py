"""The agent hooks' answers as JSON text, without the json module.

An answer is a small object of strings (and objects of strings): `{"hookSpecificOutput": {...,
"permissionDecisionReason": "..."}}`. json.dumps(obj, ensure_ascii=False) is the reference; loading
json (its encoder, decoder and their regexes) cost a refused shell command a few percent of its
answer. :func:`dumps` writes exactly what json.dumps writes for such an object, and hands anything
else (a number, a list, a key that is not a string) to json itself.
tests/test_agent_answers_as_json_text.py holds the two equal by example and by fuzzing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# What json's string encoder escapes when it keeps non-ASCII text (ensure_ascii=False): the quote, the
# backslash and the control characters, the common ones by their short names, the rest as \u00XX.
_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)}
_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\", ord("\b"): "\\b", ord("\f"): "\\f", ord("\n"): "\\n",
                 ord("\r"): "\\r", ord("\t"): "\\t"})


def dumps(obj: dict[str, Any]) -> str:
    """json.dumps(obj, ensure_ascii=False)."""
    if not _plain(obj):
        import json

        return json.dumps(obj, ensure_ascii=False)
    return _object(obj)


def _plain(value: object) -> bool:
    """A string, or a dict of string keys whose values are plain: all :func:`_object` writes."""
    if type(value) is str:
        return True
    return type(value) is dict and all(type(k) is str and _plain(v) for k, v in value.items())


def _object(value: object) -> str:
    if type(value) is str:
        return '"' + value.translate(_ESCAPES) + '"'
    assert type(value) is dict
    return "{" + ", ".join(f"{_object(k)}: {_object(v)}" for k, v in value.items()) + "}"
