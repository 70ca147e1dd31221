"""A host's settings file, read so that writing it back changes no byte we did not mean to.

The file is the user's: numbers Python would round (`0.1000000000000000055511151231257827`)
or overflow (`1e400`), key order, escaped or raw non-ASCII, the indentation. So a number
whose Python value would print differently is carried as a unique placeholder and put back
as its literal text, and the file's layout is found among the layouts `json.dumps` can
write: the one that reproduces the file exactly. A file no layout reproduces (mixed
indentation, an escaped `\\/`, a duplicate key) is refused with the reason: we would rather
not install than rewrite what we do not own.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from harness.agent.settings_comments import Commented, CrossesComment, splice
from harness.agent.settings_comments import strip as strip_comments
from harness.core.limits import lone_surrogate

INDENTS: tuple[int | str | None, ...] = (2, 4, None, "\t", 1, 3, 8)
DEFAULT_LAYOUT = (2, (",", ": "), False)


@dataclass
class Settings:
    doc: dict[str, Any]
    layout: tuple[Any, tuple[str, str], bool] = DEFAULT_LAYOUT
    numbers: dict[str, str] = field(default_factory=dict)  # placeholder -> the number's text
    before: str = ""                                       # whitespace around the document
    after: str = "\n"
    comments: Commented | None = None                      # the file's comments, for a host that reads them


class NotExact(ValueError):
    """The file cannot be written back byte-for-byte outside the harness's own entries."""


class CommentInTheWay(NotExact):
    """As NotExact, because of where a comment stands (a file whose host reads comments)."""


def load(text: str, comments: bool = False) -> Settings:
    """Parse ``text`` (a JSON object, with ``comments`` `//` and `/* */` ones around its values); NotExact (a
    ValueError) says why it cannot round-trip."""
    source = strip_comments(text) if comments else None
    if source is None:
        return _load(text)
    try:
        settings = _load(source.plain)
    except NotExact as exc:
        raise CommentInTheWay(f"{exc}, once its comments are taken out") from None
    settings.comments = source
    return settings


def _load(text: str) -> Settings:
    tag = secrets.token_hex(8)
    numbers: dict[str, str] = {}

    def number(literal: str, value: Any) -> Any:
        if json.dumps(value) == literal:
            return value
        key = f"harness-number-{tag}-{len(numbers)}"
        numbers[key] = literal
        return key

    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                         parse_int=lambda t: number(t, int(t)), parse_float=lambda t: number(t, float(t)))
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(doc, dict):
        raise ValueError("the top level is not a JSON object")
    if lone_surrogate(doc):  # not text: a host reading the file may choke on it, or drop it
        raise ValueError("a lone surrogate escape (\\udXXX) is not text")
    body = text.strip()
    settings = Settings(doc, numbers=numbers, before=text[:text.index(body[0])], after=text[len(text.rstrip()):])
    for layout in _layouts():
        settings.layout = layout
        if _body(settings) == body:
            return settings
    raise NotExact("its layout (indentation, spacing, escapes) is not one the harness can write back exactly")


def dump(settings: Settings, doc: dict[str, Any]) -> bytes:
    text = settings.before + _body(settings, doc) + settings.after
    if settings.comments is not None:
        try:
            text = splice(settings.comments, text)
        except CrossesComment as exc:
            raise CommentInTheWay(str(exc)) from None
    return text.encode("utf-8")


def _body(settings: Settings, doc: dict[str, Any] | None = None) -> str:
    indent, separators, ascii_only = settings.layout
    text = json.dumps(settings.doc if doc is None else doc, indent=indent, separators=separators,
                      ensure_ascii=ascii_only)
    for key, literal in settings.numbers.items():
        text = text.replace(json.dumps(key), literal)
    return text


def _layouts() -> list[tuple[Any, tuple[str, str], bool]]:
    out = []
    for ascii_only in (False, True):
        for indent in INDENTS:
            for separators in ((", ", ": "), (",", ":")) if indent is None else ((",", ": "),):
                out.append((indent, separators, ascii_only))
    return out


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise NotExact(f"the key {twice[:80]!r} appears twice in one object (which one the host reads is unclear)")
    return doc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
