"""Hex dumps (pure): where a text holds the rows of one, and the bytes they spell (read 135's F-0475, read 137).

`xxd`, `hexdump`, `od -tx1`, `tcpdump -X`, `tshark -x` and Python's `hexdump` print bytes as groups of hex digits,
sixteen to a row after an offset, most of them with the bytes as characters beside: a token is cut into pieces in
both columns and whole in neither. So the rows of a dump are read together: the bytes of their groups, joined, are
what the redactor reads (:meth:`harness.core.redact.Redactor._dumped`), and a dump holding a secret is replaced row
for row, both columns. A row is found where a line starts or further in (a `go test -json` record's `Output`), and
a line ends at a line break or at a JSON string's `\\n` escape (a dump logged as one string: read 137's F-0479).
Where every group is a word of 2, 4 or 8 bytes, the bytes are read as written and each word reversed too
(`hexdump`, `xxd -e` and `od -tx4` write little-endian words: read 137's F-0478).
"""

from __future__ import annotations

import itertools
import re

# A row's start: an offset or a group, then two more groups (or more), a few spaces apart.
ROW = re.compile(r"(?<![0-9A-Za-z_])(?:0[xX])?[0-9A-Fa-f]{2,16}[:,]?(?:[ \t\u2502\u250a|]{1,8}(?:0[xX])?[0-9A-Fa-f]{2,16},?)+")
# What sets groups apart besides spaces: `xxd -i`'s commas, hexyl's box lines and bars (read 139's F-0494).
_APART = str.maketrans({",": " ", "\u2502": " ", "\u250a": " ", "|": " "})
_PREFIX = re.compile(r"(?<![0-9A-Za-z_])0[xX](?=[0-9A-Fa-f])")
_BREAK = re.compile(r"\r?\n|\\r\\n|\\n")
_GROUP = re.compile(r"(?:[0-9A-Fa-f]{2}){1,8}")
_WORD = re.compile(r"([ \t]*)(\S+)")
MIN_BYTES = 8  # a secret's context and a token are longer than this
_PREFIX_CHARS = 96  # how far into a line a row's start is looked for past another candidate (a logger's prefix)
_BETWEEN = 4  # a line this short between rows (a JSON record's closing `"}`) does not end a dump


def runs(text: str) -> list[list[tuple[int, int, list[str]]]]:
    """The dumps ``text`` holds: for each, its rows as (start, end, hex groups), where start..end is the row's span
    in ``text`` (from its offset to the end of its line), for runs of two rows or more spelling :data:`MIN_BYTES`."""
    out: list[list[tuple[int, int, list[str]]]] = []
    run: list[tuple[int, int, list[str]]] = []
    for start, end in _lines(text):
        # Every candidate: a logger's timestamp (`2024-05-01 10:00:00`, `10:00:00.123`) looks like a row's start, and
        # is none, or a short one (read 141's F-0499).
        found = _row(text, start, end)
        if found is not None:
            run.append((found[0], end, found[1]))
            continue
        if run and len(text[start:end].strip()) <= _BETWEEN:
            continue
        _keep(run, out)
        run = []
    _keep(run, out)
    return out


def _row(text: str, start: int, end: int) -> tuple[int, list[str]] | None:
    """Where the row in the line ``start``..``end`` starts, and its groups: the first candidate that spells
    :data:`MIN_BYTES`, else the one spelling the most. Candidates are looked for among the line's first
    :data:`_PREFIX_CHARS` characters, one inside another too (`.123 00000000  47 …`), then the first one after them."""
    best: tuple[int, list[str]] | None = None
    pos = start
    while (m := ROW.search(text, pos, end)) is not None:
        groups = _groups(text[m.start():end])
        if groups is not None and sum(map(len, groups)) >= 2 * MIN_BYTES:
            return m.start(), groups
        if groups is not None and (best is None or sum(map(len, groups)) > sum(map(len, best[1]))):
            best = (m.start(), groups)
        if m.start() >= start + _PREFIX_CHARS:
            break
        pos = m.start() + 1
    return best


def _keep(run: list[tuple[int, int, list[str]]], out: list[list[tuple[int, int, list[str]]]]) -> None:
    """A run of rows is a dump's when two rows or more spell :data:`MIN_BYTES`, or one row twice as many (a Node.js
    `<Buffer 47 45 …>`, `bytes.hex(" ")`: read 139's F-0495)."""
    size = sum(len(g) for _, _, row in run for g in row) // 2
    if size >= MIN_BYTES * (1 if len(run) >= 2 else 2):
        out.append(run)


def _lines(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for m in _BREAK.finditer(text):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, len(text)))
    return spans


def spelled(rows: list[list[str]]) -> list[bytes]:
    """The bytes the rows' groups spell: as written, and each word reversed when the groups are words of 2, 4 or 8
    bytes (a shorter last group aside)."""
    groups = [g for row in rows for g in row]
    data = [bytes.fromhex("".join(groups))]
    width = len(groups[0]) if groups else 0
    if width in (4, 8, 16) and all(len(g) == width for g in groups[:-1]):
        data.append(b"".join(bytes.fromhex(g)[::-1] for g in groups))
    return data


def _groups(row: str) -> list[str] | None:
    """The hex groups of one row (its offset and its characters left out), or None if it is no dump's. Commas, box
    lines and `0x` are separators, not digits (`xxd -i`, hexyl). The first word is an offset when it ends in `:` or
    is not as long as the group after it. The groups are of one width, a last one shorter (a partial word), as far
    apart as the first two are (`hexdump -x` sets them four spaces apart); a wider gap ends them (the characters
    follow), but after the eighth byte, where `hexdump -C` and others set the halves of a row apart."""
    row = _PREFIX.sub("", row).translate(_APART)
    found = ((len(m.group(1)), m.group(2)) for m in _WORD.finditer(row))  # lazily: a row may be a megabyte long
    words = list(itertools.islice(found, 3))
    if len(words) < 2:
        return None
    if words[0][1].endswith(":") or len(words[0][1]) != len(words[1][1]):
        words = words[1:]
    width = len(words[0][1]) if words else 0
    usual = words[1][0] if len(words) > 1 else 1
    groups: list[str] = []
    for i, (gap, word) in enumerate(itertools.chain(words, found)):
        if not _GROUP.fullmatch(word) or len(word) > width:
            break
        if i and gap > usual and not (sum(map(len, groups)) == 16 and len(word) == width):
            break
        groups.append(word)
        if len(word) < width:
            break
    return groups if len(groups) >= 2 else None
