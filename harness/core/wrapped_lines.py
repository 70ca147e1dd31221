"""Text as a reader reads it once the line breaks a tool wrapped it at are taken out: a token printed by `fold -w`,
by Python's textwrap (which breaks a word longer than the width), continued with a shell's `\\`, under a prefix every
line repeats (`web-1  | `, a log's timestamp, a quote's `> `), or in a table whose cell wraps a long value down its
rows, is in no line whole, and each piece alone is no token's shape (read 149's F-0525, read 150's F-0526, F-0527).
The rules read these views; what they find across a break is redacted in each line it spans.

A break is read as a wrap only where a wrap can be: a token character on both sides of it (past the prefix the two
lines share and the next one's indent), and, in a run of breaks, no line of the run shorter than the one before it,
the run's width set by a line of token characters alone (a wrapping tool fills every line but the last: the line after
a short one is the next thing printed, read 150's F-0529, read 152's F-0533); a table's cell is joined to the next
row's only when it fills its column. Which findings across a break count is :mod:`harness.core.redact`'s to say
(`Redactor._wrapped_in`), and where a log is cut, :mod:`harness.evidence.outputcut`'s.

Pure: text in, views out. Encodings wrapped at a width (base64, hex) are :mod:`harness.core.redact`'s own `_WRAPPED`
reading, which decodes them joined.
"""

from __future__ import annotations

import bisect
import itertools
import re

from harness.core.value_class import dataclass  # not dataclasses: inspect, ast and dis on every recording

# What a token is written with: the rules' alphabets, a JWT's dots. Not `=`: base64's padding ends a token, and a line
# ending `API_TOKEN=` is an empty value, not the first half of the next line's (read 150's F-0529).
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+/")
_LINE = re.compile(r"[^\n]*\n?")
_TOKEN = r"A-Za-z0-9_\-.+/"
# A break a wrapped token may run over: eight token characters before it (a `\` or a CR between), or one before it
# and eight after the next line's indent, or after a prefix's last space, `|` or `>` (read 153's F-0538). A token the
# rules know is 16 characters or more, so one of its pieces on either side of a break is 8. Each alternative starts at
# the line feed: a pattern that starts with a lookbehind is tried at every character (25 times slower on a long log).
_AFTER_EIGHT = "|".join(rf"(?<=[{_TOKEN}]{{8}}{end}\n)" for end in ("", "\r", "\\\\", "\\\\\r"))
_AFTER_ONE = "|".join(rf"(?<=[{_TOKEN}]{end}\n)" for end in ("", "\r", "\\\\", "\\\\\r"))
_CANDIDATE = re.compile(rf"\n(?:{_AFTER_EIGHT}|(?:{_AFTER_ONE})(?=[ \t]*[{_TOKEN}]{{8}}|[^\n]{{0,40}}?[ |>][ \t]*[{_TOKEN}]{{8}}))")
_DIGITS = str.maketrans("0123456789", "0000000000")  # a prefix's shape: a timestamp's digits change from line to line
# The borders of a table's columns: ASCII, and the light, heavy and double box-drawing ones.
_BORDER = re.compile("[|\u2502\u2503\u2551]")
_RULE_CELL = re.compile(r"[\s:=+\-\u2500-\u257f]*")  # a row that rules a table: it ends a run of wrapped cells
# A table with no vertical borders, ruled under its header (tabulate's `simple`, `psql` without borders): its columns
# are the rule's dash runs.
_DASH_RULE = re.compile(r"(?m)^ *(?:-{2,}|={2,})(?: +(?:-{2,}|={2,}))+ *\r?$")


@dataclass(frozen=True)
class Joined:
    """``text``: pieces of the original joined; ``segments``: (start in ``text``, start, end in the original) of each."""

    text: str
    segments: tuple[tuple[int, int, int], ...]
    filled: bool = False  # a table's cells, joined only where each fills its column: a wrap beyond doubt

    def parts(self, start: int, end: int) -> list[tuple[int, int]]:
        """The original spans of ``text[start:end]``, one for each segment it covers; none when it lies in one segment
        alone (the text as written shows it whole: the rules found it there)."""
        starts = [at for at, _, _ in self.segments]
        first = bisect.bisect_right(starts, start) - 1
        out = []
        for at, o_start, o_end in self.segments[max(first, 0):]:
            if at >= end:
                break
            lo, hi = max(start - at, 0), min(end - at, o_end - o_start)
            if hi > lo:
                out.append((o_start + lo, o_start + hi))
        return out if len(out) > 1 else []


class _Builder:
    """A :class:`Joined` made piece by piece."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.segments: list[tuple[int, int, int]] = []
        self.at = 0

    def add(self, text: str, start: int, end: int) -> None:
        self.segments.append((self.at, start, end))
        self.pieces.append(text[start:end])
        self.at += end - start

    def gap(self) -> None:
        self.pieces.append("\n")
        self.at += 1

    def built(self, filled: bool = False) -> Joined:
        return Joined("".join(self.pieces), tuple(self.segments), filled)


def views(text: str) -> list[Joined]:
    """The views of ``text`` a wrapped token is whole in: its lines joined where a token runs over a break, and each
    table's columns read cell after cell down its rows."""
    joined = _joined_lines(text)
    out = [joined] if joined is not None else []
    bordered, ruled = _BORDER.search(text) is not None, _DASH_RULE.search(text) is not None
    if bordered or ruled:
        lines = [(m.start(), m.group().rstrip("\r\n")) for m in _LINE.finditer(text) if m.group()]
        out += _bordered(text, lines) if bordered else []
        out += _ruled(text, lines) if ruled else []
    return out


def _joined_lines(text: str) -> Joined | None:
    """The runs of lines of ``text`` joined at each break :func:`_wrap` reads as one inside a token, a line break
    between runs: the rules read those lines alone, not the whole text again (its candidates found by
    :data:`_CANDIDATE`; a line at a time in Python, and the whole text read twice, cost a long log twice its
    redaction)."""
    built, start, joined_line, line_end = _Builder(), -1, -1, 0
    width: int | None = None
    for m in _CANDIDATE.finditer(text):
        nl = m.start()
        a_at = text.rfind("\n", 0, nl) + 1
        b_end = text.find("\n", nl + 1)
        a, b = text[a_at:nl].rstrip("\r"), text[nl + 1:b_end if b_end >= 0 else len(text)].rstrip("\r")
        chained = joined_line == a_at
        wrap = _wrap(a, b, width if chained else None)
        if wrap is None:
            continue
        if not chained:  # a new run: the one before ends with its last line
            if start >= 0:
                built.add(text, start, line_end)
                built.gap()
            start = a_at
        built.add(text, start, a_at + wrap[0])
        # a run's width is a line of the token alone: a sentence before it ending `.` sets none (read 152's F-0533)
        width = len(a) if is_token_line(a[wrap[2]:]) else None
        start, joined_line, line_end = nl + 1 + wrap[1], nl + 1, nl + 1 + len(b)
    if start < 0:
        return None
    built.add(text, start, line_end)
    return built.built()


def _wrap(a: str, b: str, width: int | None) -> tuple[int, int, int] | None:
    """(where line ``a``'s piece ends, where line ``b``'s starts, the length of the prefix they share) when the break between them may be a wrap inside a
    token, else None; ``width``: the length of the line before ``a`` when that break was read as one (a line longer
    than it is a wrap's first: the words before the token are no wrap's, and were joined to it harmlessly)."""
    if width is not None and len(a) < width:  # the last line of a wrap: what follows is not of the token
        return None
    end = len(a) - 1 if a.endswith("\\") else len(a)
    if end == 0 or a[end - 1] not in TOKEN_CHARS or not b:
        return None
    prefix = shared_prefix(a, b) if a[0].translate(_DIGITS) == b[0].translate(_DIGITS) else 0
    start = len(b) - len(b[prefix:].lstrip(" \t"))
    if start >= len(b) or b[start] not in TOKEN_CHARS:
        return None
    return end, start, prefix


def secret_like(piece: str) -> bool:
    """Upper and lower case letters and a digit: how a token's encoded bytes read (a JWT's, an API key's), and not a
    word, a status line, a date or a commit id."""
    return (any(c.isupper() for c in piece) and any(c.islower() for c in piece)
            and any(c.isdigit() for c in piece))


def is_token_line(line: str) -> bool:
    """Whether ``line`` (past its indent) is token characters alone: a full line of a wrapped token."""
    line = line.lstrip(" \t").removesuffix("\\")
    return bool(line) and all(c in TOKEN_CHARS for c in line)


def shared_prefix(a: str, b: str) -> int:
    """The length of the prefix ``a`` and ``b`` share in shape (a digit is any digit), up to its last character that
    is no token's: the pieces after it may share letters."""
    shape_a, shape_b = a.translate(_DIGITS), b.translate(_DIGITS)
    low, high = 0, min(len(a), len(b))
    while low < high:  # the longest common prefix, by slices compared whole
        mid = (low + high + 1) // 2
        low, high = (mid, high) if shape_a[:mid] == shape_b[:mid] else (low, mid - 1)
    while low and shape_a[low - 1] in TOKEN_CHARS:
        low -= 1
    return low


def _bordered(text: str, lines: list[tuple[int, str]]) -> list[Joined]:
    """One view of each run of rows whose borders stand at the same columns, as a terminal shows them (a wide
    character takes two: read 150's F-0526)."""
    out: list[Joined] = []
    run: list[list[tuple[int, int]]] = []
    layout: tuple[int, ...] | None = None
    for at, line in lines:
        borders = [m.start() for m in _BORDER.finditer(line)]
        shown = tuple(_columns_of(line, borders)) if len(borders) >= 2 else None
        if shown is None or shown != layout:
            out += [_cells_down(text, run)] if len(run) > 1 else []
            run, layout = [], shown
        if shown is not None:
            run.append([(at + left + 1, at + right) for left, right in itertools.pairwise(borders)])
    return out + ([_cells_down(text, run)] if len(run) > 1 else [])


def _ruled(text: str, lines: list[tuple[int, str]]) -> list[Joined]:
    """One view of each table ruled under its header with dash runs and no vertical borders: the rows after the rule,
    to a blank line, cut into the rule's columns (each as wide as its dashes)."""
    out = []
    for i, (_, rule) in enumerate(lines):
        if not _DASH_RULE.fullmatch(rule):
            continue
        spans = [m.span() for m in re.finditer(r"[-=]+", rule)]
        edges = [edge for span in spans for edge in span]
        run = []
        for at, line in itertools.takewhile(lambda row: row[1].strip() and not _DASH_RULE.fullmatch(row[1]),
                                            lines[i + 1:]):
            found = _indexes_at(line, edges)
            found[-1] = len(line)  # the last column's value may run past its rule
            run.append([(at + found[k], at + found[k + 1]) for k in range(0, len(found), 2)])
        if len(run) > 1:
            out.append(_cells_down(text, run))
    return out


def _cells_down(text: str, rows: list[list[tuple[int, int]]]) -> Joined:
    """Each column's cells (``rows``: each row's cell spans) joined down the rows while a cell fills its column (at
    most one space after its value), a line break between columns and after a cell that does not."""
    built = _Builder()
    for column in range(min(len(row) for row in rows)):
        for row in rows:
            start, end = row[column]
            cell = text[start:end]
            value = cell.strip()
            if value and not _RULE_CELL.fullmatch(cell):
                first = start + cell.index(value)
                built.add(text, first, first + len(value))
            if not value or _RULE_CELL.fullmatch(cell) or len(cell) - len(cell.rstrip()) > 1:
                built.gap()
        built.gap()
    return built.built(filled=True)


def _columns_of(line: str, indexes: list[int]) -> list[int]:
    """The columns a terminal shows the characters at ``indexes`` of ``line`` in (East Asian wide ones take two)."""
    if line.isascii():
        return indexes
    import unicodedata

    at, column, out = set(indexes), 0, []
    for i, char in enumerate(line):
        if i in at:
            out.append(column)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return out


def _indexes_at(line: str, columns: list[int]) -> list[int]:
    """The index in ``line`` of the first character shown at or after each of ``columns`` (ascending)."""
    if line.isascii():
        return [min(c, len(line)) for c in columns]
    import unicodedata

    out: list[int] = []
    column = 0
    for i, char in enumerate(line):
        while len(out) < len(columns) and column >= columns[len(out)]:
            out.append(i)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return out + [len(line)] * (len(columns) - len(out))
