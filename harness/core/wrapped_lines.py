"""Text as a reader reads it once the line breaks a tool wrapped it at are taken out: a token printed by `fold -w`,
by Python's textwrap (which breaks a word longer than the width), continued with a shell's `\\`, or in a table whose
cell wraps a long value over rows, is in no line whole, and each piece alone is no token's shape (read 149's
F-0525). The rules read these views; what they find across a break is redacted in each line it spans.

Pure: text in, views out. Encodings wrapped at a width (base64, hex) are :mod:`harness.core.redact`'s own `_WRAPPED`
reading, which decodes them joined.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

_TOKEN = r"A-Za-z0-9_\-.+/="  # what a token is written with: the rules' alphabets, a JWT's dots, base64's padding
# A break inside a token: a token character before it (a shell's `\` between), one after it past the next line's indent.
_BREAK = re.compile(rf"(?<=[{_TOKEN}])\\?\r?\n[ \t]*(?=[{_TOKEN}])")
# The borders of a table's columns: ASCII, and the light, heavy and double box-drawing ones.
_BORDER = re.compile("[|\u2502\u2503\u2551]")
_LINE = re.compile(r"[^\n]*\n?")


@dataclass(frozen=True)
class Joined:
    """``text``: pieces of the original joined; ``segments``: (start in ``text``, start, end in the original) of each."""

    text: str
    segments: tuple[tuple[int, int, int], ...]

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


def views(text: str) -> list[Joined]:
    """The views of ``text`` a wrapped token is whole in: its lines joined where a token runs over a break, and each
    table's columns read cell after cell down its rows."""
    out = [] if _BREAK.search(text) is None else [_joined_lines(text)]
    if _BORDER.search(text) is not None:
        out += _table_columns(text)
    return out


def _joined_lines(text: str) -> Joined:
    segments, pieces, at, pos = [], [], 0, 0
    for m in _BREAK.finditer(text):
        segments.append((at, pos, m.start()))
        pieces.append(text[pos:m.start()])
        at, pos = at + m.start() - pos, m.end()
    segments.append((at, pos, len(text)))
    pieces.append(text[pos:])
    return Joined("".join(pieces), tuple(segments))


def _table_columns(text: str) -> list[Joined]:
    """One view of each table: rows in a run whose borders stand at the same columns, each column's cells (stripped)
    joined down the rows, a line break between columns."""
    out: list[Joined] = []
    run: list[tuple[int, str, tuple[int, ...]]] = []
    layout: tuple[int, ...] | None = None
    for m in _LINE.finditer(text):
        if not m.group():
            break
        line = m.group().rstrip("\r\n")
        borders = tuple(b.start() for b in _BORDER.finditer(line))
        if len(borders) < 2 or borders != layout:
            out += _columns(run) if len(run) > 1 else []
            run, layout = [], borders if len(borders) >= 2 else None
        if layout is not None:
            run.append((m.start(), line, borders))
    return out + (_columns(run) if len(run) > 1 else [])


def _columns(rows: list[tuple[int, str, tuple[int, ...]]]) -> list[Joined]:
    segments, pieces, at = [], [], 0
    borders = rows[0][2]
    for left, right in itertools.pairwise(borders):
        for offset, line, _ in rows:
            cell = line[left + 1:right]
            value = cell.strip()
            if value:
                start = offset + left + 1 + cell.index(value)
                segments.append((at, start, start + len(value)))
                pieces.append(value)
                at += len(value)
        pieces.append("\n")
        at += 1
    return [Joined("".join(pieces), tuple(segments))]
