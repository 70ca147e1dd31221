"""Hex dumps (pure): the bytes the lines of a dump spell, for the redactor to read as text (read 135's F-0475).

`xxd`, `hexdump -C`, `hexdump` and `od -tx1` print bytes as groups of hex digits, sixteen to a line after an offset,
most of them with the bytes as characters beside: a token is cut into pieces in both columns and whole in neither.
The lines of a dump are read together: the bytes of their hex columns, joined, are what the redactor reads, and a
dump holding a secret is replaced line for line, both columns. Where every group is a 16-bit word, the bytes are
read as written and swapped too (`hexdump` without -C writes little-endian words).
"""

from __future__ import annotations

import re

# Two or more lines in a dump's shape: an optional offset, then a group of hex digits and white space. What each
# line holds is read by :func:`rows`; a line that is not a dump's ends the block there.
BLOCK = re.compile(r"(?m)(?:^[ \t]*(?:0x)?[0-9A-Fa-f]{2,16}:?[ \t]+[0-9A-Fa-f]{2}[^\n]*(?:\n|\Z)){2,}")
_HEX_GROUP = re.compile(r"(?:[0-9A-Fa-f]{2}){1,4}")
MIN_BYTES = 8  # a secret's context and a token are longer than this


def rows(lines: list[str]) -> list[tuple[int, int, list[list[str]]]]:
    """The dumps among ``lines`` (a :data:`BLOCK` match's): (first line, the line after the last, each line's hex
    groups), for runs of two lines or more spelling :data:`MIN_BYTES` bytes or more."""
    out: list[tuple[int, int, list[list[str]]]] = []
    run: list[list[str]] = []
    for i, line in enumerate([*lines, ""]):
        groups = _groups(line)
        if groups is not None:
            run.append(groups)
            continue
        if len(run) >= 2 and sum(len(g) for row in run for g in row) >= 2 * MIN_BYTES:
            out.append((i - len(run), i, run))
        run = []
    return out


def spelled(run: list[list[str]]) -> list[bytes]:
    """The bytes the lines' groups ``run`` spell: as written, and swapped when every group is a 16-bit word."""
    groups = [g for row in run for g in row]
    data = [bytes.fromhex("".join(groups))]
    if all(len(g) == 4 for g in groups):
        data.append(bytes.fromhex("".join(g[2:] + g[:2] for g in groups)))
    return data


def _groups(line: str) -> list[str] | None:
    """The hex groups of one dump line (its offset and its characters column left out), or None if it is no dump's.
    hexdump -C's characters stand between bars, xxd's after two spaces or more (its groups are one apart); od prints
    none. The first word is an offset when it ends in `:` or is longer than the group after it (od -An has none)."""
    line = line.rstrip("\r\n")
    words = (line[:line.index("|")] if "|" in line else re.split(r" {2,}", line.strip(), maxsplit=1)[0]).split()
    if len(words) < 2:
        return None
    groups = words[1:] if words[0].endswith(":") or len(words[0]) > len(words[1]) else words
    return groups if all(_HEX_GROUP.fullmatch(g) for g in groups) else None
