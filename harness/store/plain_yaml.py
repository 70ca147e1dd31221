"""The YAML the harness writes, read without PyYAML: block mappings and lists of plain keys and
one-line values, as ``yamlio.dump`` renders a task's files and as `harness init` writes
config.yaml and gate.yaml (comments included), and the one-line lists of quoted words a
configuration spells a command with (``command: ["pytest", "-q"]``).

PyYAML costs `harness status` and the agent's session hooks a sixth of their answer to import.
This reader takes only what it can read exactly as PyYAML's safe loader does, and gives
:data:`NOT_PLAIN` for anything else — a quote that is not one line, a double quote holding an
escape, a flow mapping, a flow list holding more than quoted strings and plain words, an
anchor, alias or tag, a block scalar, a value running onto a second line, a key YAML would type as something other than a string, a repeated key, a tab,
a character YAML reads differently or refuses, a number that is not a plain decimal integer —
and the caller then reads the text with PyYAML, whose answer (or refusal) stands. So an
answer from here is always PyYAML's: tests/test_plain_yaml_reads_as_pyyaml.py compares the
two on the files the harness writes and on odd inputs, by example and by fuzzing.
"""

from __future__ import annotations

NOT_PLAIN = object()  # "read it with PyYAML"


class _NotPlain(Exception):
    """The text leaves the subset read here."""


# Plain words YAML 1.1 (PyYAML's resolver) types as booleans or null; a key among them is no string.
_WORDS = {**dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
          **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
          **dict.fromkeys(("null", "Null", "NULL"), None)}
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
_DIGITS = frozenset("0123456789")


def load(text: bytes | str) -> object:
    """The document ``text`` holds, as PyYAML's safe loader reads it, or :data:`NOT_PLAIN`."""
    if isinstance(text, bytes):
        if text.startswith(b"\xef\xbb\xbf"):
            return NOT_PLAIN  # a byte order mark: PyYAML's to read
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return NOT_PLAIN  # PyYAML reads UTF-16 too, or refuses with its own words
    try:
        lines = _Lines(text)
        if lines.end() or lines.indent(lines.i) != 0:
            return NOT_PLAIN
        doc = _block(lines, 0)
    except (_NotPlain, RecursionError):  # nested past the interpreter's depth: PyYAML's path refuses it
        return NOT_PLAIN
    return doc if lines.end() else NOT_PLAIN


class _Lines:
    """The text's lines, each (indent, text without it and trailing spaces), and a cursor ``i`` on the
    next one that is neither blank nor a comment."""

    def __init__(self, text: str) -> None:
        self.raw: list[tuple[int, str]] = []
        for line in text.split("\n"):
            if not line.isprintable():  # YAML refuses what is not printable even in a comment; CR, NEL,
                raise _NotPlain         # LS and PS break lines; a tab is left to it too
            if line.startswith(("---", "...", "%")):
                raise _NotPlain  # a directive or document marker
            body = line.lstrip(" ")
            self.raw.append((len(line) - len(body), body.rstrip(" ")))
        self.i = 0
        self.skip()

    def skip(self) -> None:
        while self.i < len(self.raw) and (not self.raw[self.i][1] or self.raw[self.i][1].startswith("#")):
            self.i += 1

    def end(self) -> bool:
        return self.i >= len(self.raw)

    def indent(self, i: int) -> int:
        return self.raw[i][0]

    def body(self) -> str:
        return self.raw[self.i][1]

    def next(self) -> None:
        self.i += 1
        self.skip()

    def deeper(self, indent: int) -> bool:
        return not self.end() and self.raw[self.i][0] > indent

    def continuation(self, indent: int) -> list[str]:
        """The lines right after the current one that are deeper than ``indent``, stripped: the rest of
        a value that runs onto them. A blank line or a comment among them is PyYAML's to read."""
        out = []
        j = self.i + 1
        while j < len(self.raw) and self.raw[j][0] > indent and self.raw[j][1]:
            out.append(self.raw[j][1])
            j += 1
        self.i = j
        self.skip()
        if out and self.deeper(indent):
            raise _NotPlain  # a blank line or comment, then more of the value
        return out


def _block(lines: _Lines, indent: int) -> object:
    """The block collection starting at the cursor, at ``indent``."""
    if _is_item(lines.body()):
        return _sequence(lines, indent)
    return _mapping(lines, indent, lines.body())


def _is_item(body: str) -> bool:
    return body == "-" or body.startswith("- ")


def _mapping(lines: _Lines, indent: int, first: str) -> dict:
    """A block mapping at ``indent`` from the cursor's line, whose first entry is ``first`` (the rest of
    a list item's line, for a mapping that starts on one)."""
    out: dict = {}
    body = first
    while True:
        key, rest = _entry(body)
        if key in out:
            raise _NotPlain  # PyYAML's loader (yamlio's) refuses it, naming both lines
        if rest:
            out[key] = _value(rest, lines.continuation(indent))
        else:
            lines.next()
            out[key] = _nested(lines, indent, same_indent_list=True)
        if lines.end() or lines.indent(lines.i) < indent:
            return out
        if lines.indent(lines.i) > indent or _is_item(lines.body()):
            raise _NotPlain
        body = lines.body()


def _sequence(lines: _Lines, indent: int) -> list:
    out: list = []
    while not lines.end() and lines.indent(lines.i) == indent and _is_item(lines.body()):
        body = lines.body()
        rest = body[2:].lstrip(" ")
        if not rest:
            lines.next()
            item = _nested(lines, indent, same_indent_list=False)
        elif _is_item(rest) or rest.startswith("#"):
            raise _NotPlain  # a list in a list on one line, or a comment for a value: PyYAML's
        elif _starts_entry(rest):
            item = _mapping(lines, indent + len(body) - len(rest), rest)
        else:
            item = _value(rest, lines.continuation(indent))
        out.append(item)
    if lines.deeper(indent):
        raise _NotPlain
    return out


def _nested(lines: _Lines, indent: int, same_indent_list: bool) -> object:
    """The value of an entry or item with nothing after its indicator: the block below it (a
    mapping's list may sit at the mapping's own indent), else null."""
    if lines.deeper(indent):
        return _block(lines, lines.indent(lines.i))
    if same_indent_list and not lines.end() and lines.indent(lines.i) == indent and _is_item(lines.body()):
        return _sequence(lines, indent)
    return None


def _starts_entry(body: str) -> bool:
    head, colon, rest = body.partition(":")
    return bool(colon) and (not rest or rest.startswith(" ")) and bool(head) and set(head) <= _KEY_CHARS


def _entry(body: str) -> tuple[str, str]:
    """(key, the value's text) of a `key:` or `key: value` line; a key is a plain word YAML reads
    as a string (no boolean, null or number)."""
    head, colon, rest = body.partition(":")
    if not colon or (rest and not rest.startswith(" ")) or not head or not set(head) <= _KEY_CHARS:
        raise _NotPlain
    if head in _WORDS or head[0] in _DIGITS or head[0] in "-." or head in ("~", "_"):
        raise _NotPlain
    rest = rest.lstrip(" ")
    return head, "" if rest.startswith("#") else rest  # `key:   # why`: a comment, and no value


def _value(text: str, more: list[str]) -> object:
    """A value: a single-quoted string, `{}`, `[]`, a plain string, integer, boolean or null; ``more``
    holds the lines it runs onto (stripped), which YAML joins with a space."""
    if text.startswith("'"):
        # A comment after the closing quote ends the value only on its one line: joined with the lines
        # it runs onto, a comment would swallow them (PyYAML refuses such a text).
        return _single_quoted(" ".join([text, *more]), comment=False) if more else _single_quoted(text)
    if text[0] in "\"[":
        if more:
            raise _NotPlain  # a quoted string or a list running onto more lines: PyYAML's to fold
        value, after = _flow_list(text) if text[0] == "[" else _double_quoted(text, 0)
        _only_comment(after)
        return value
    if more:
        if not text[0].isalpha() or not text.isascii():
            raise _NotPlain  # only a string, which a folded number or word cannot become, is joined here
        for line in (text, *more):
            _plain_piece(line)
        if any(line[0] in _INDICATORS for line in more):
            raise _NotPlain
        return " ".join([text, *more])
    if "#" in text:
        head, hashmark, _ = text.partition(" #")
        if not hashmark or "#" in head:
            raise _NotPlain  # `a#b` is YAML's text: left to it rather than told apart here
        text = head.rstrip(" ")
    if text == "{}":
        return {}
    if text == "[]":
        return []
    return _plain(text)


_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")


def _plain_piece(text: str) -> None:
    if ": " in text or text.endswith(":") or "#" in text:
        raise _NotPlain


def _single_quoted(text: str, comment: bool = True) -> str:
    end, out = 1, []
    while True:
        close = text.find("'", end)
        if close < 0:
            raise _NotPlain  # the string runs past its lines: PyYAML's to read or refuse
        out.append(text[end:close])
        if text.startswith("''", close):
            out.append("'")
            end = close + 2
            continue
        after = text[close + 1:].lstrip(" ")
        if after and not (comment and after.startswith("#") and text[close + 1:] != after):
            raise _NotPlain
        return "".join(out)


def _double_quoted(text: str, start: int) -> tuple[str, str]:
    """(the string, the text after it) of a double-quoted string at ``start`` with no escape in it:
    its characters as they stand (an escape is PyYAML's to decode)."""
    close = text.find('"', start + 1)
    if close < 0 or "\\" in text[start + 1:close]:
        raise _NotPlain
    return text[start + 1:close], text[close + 1:]


# The characters of a plain list item read here: what the configuration's commands are made of.
# A space, `:`, `#` and the flow indicators `,[]{}` are left to PyYAML (`[a: b]` holds a mapping).
_FLOW_PLAIN = _KEY_CHARS | frozenset("/+=@%")


def _flow_list(text: str) -> tuple[list, str]:
    """(the items, the text after the closing bracket) of a one-line flow list such as a command's
    ``["pytest", "-q"]``: double-quoted strings without escapes, single-quoted strings and plain
    words, each followed by `,` or the closing `]` (a trailing comma is PyYAML's)."""
    items: list = []
    i = _spaces(text, 1)
    if text.startswith("]", i):
        return items, text[i + 1:]
    while True:
        item: object
        if text.startswith('"', i):
            item, rest = _double_quoted(text, i)
        elif text.startswith("'", i):
            item, rest = _single_quoted_item(text[i:])
        else:
            end = min((j for j in (text.find(",", i), text.find("]", i)) if j >= 0), default=-1)
            word = text[i:end].rstrip(" ") if end >= 0 else ""
            if not word or not set(word) <= _FLOW_PLAIN:
                raise _NotPlain
            item, rest = _plain(word), text[end:]
        items.append(item)
        i = _spaces(rest, 0)
        if rest.startswith("]", i):
            return items, rest[i + 1:]
        if not rest.startswith(",", i):
            raise _NotPlain
        text, i = rest, _spaces(rest, i + 1)
        if text.startswith("]", i):
            raise _NotPlain  # a trailing comma


def _spaces(text: str, i: int) -> int:
    while text.startswith(" ", i):
        i += 1
    return i


def _single_quoted_item(text: str) -> tuple[str, str]:
    end, out = 1, []
    while True:
        close = text.find("'", end)
        if close < 0:
            raise _NotPlain
        out.append(text[end:close])
        if not text.startswith("''", close):
            return "".join(out), text[close + 1:]
        out.append("'")
        end = close + 2


def _only_comment(after: str) -> None:
    """What may follow a closed value on its line: spaces, then a comment set off by one."""
    rest = after.lstrip(" ")
    if rest and not (rest.startswith("#") and rest != after):
        raise _NotPlain


def _plain(text: str) -> object:
    """A one-line plain scalar as PyYAML's resolver types it, for the forms told apart here."""
    first = text[0]
    _plain_piece(text)
    if first.isalpha() and first.isascii():
        return _WORDS.get(text, text)
    if first == "-" and text[1:2] in _DIGITS:
        sign, digits = -1, text[1:]
    elif first in _DIGITS:
        sign, digits = 1, text
    else:
        raise _NotPlain  # an indicator, `~`, `.5`, `+1`, a non-ASCII start: PyYAML's
    if set(digits) <= _DIGITS:
        if len(digits) > 1 and digits[0] == "0":
            raise _NotPlain  # YAML 1.1 reads `010` as octal
        if len(digits) > 4000:
            raise _NotPlain  # past Python's digit limit: PyYAML's error
        return sign * int(digits)
    # A word starting with a digit is a string unless YAML reads it as a number or date: those
    # need `.`, `:`, `-`, `_`, `+` or a `0x`/`0b`/`0o` prefix, each left to PyYAML.
    if sign == 1 and text.isalnum() and text.isascii() and not text.startswith(("0x", "0b", "0o")):
        return text
    raise _NotPlain
