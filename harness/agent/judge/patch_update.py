"""A Codex patch's `*** Update File:` section applied to the file's text, as Codex applies it. Pure.

Mirrors codex-rs/apply-patch (parser.rs parse_update_file_chunk, lib.rs compute_replacements and
apply_replacements, seek_sequence.rs): a chunk's `@@ LINE` context lines are sought in turn, then its old lines
from there; every search is made against the original lines (exactly, then ignoring trailing whitespace,
then surrounding whitespace, then with typographic dashes, quotes and spaces read as ASCII), and a chunk marked
`*** End of File` is sought at the end of the file (F-0318: from the start, it lands elsewhere) — where it is
not found there, from the cursor too, as seek_sequence's comment says it falls back. A chunk of added lines only
goes at the end. The replacements are applied last to first.
"""

from __future__ import annotations

EOF_MARKER = "*** End of File"
# seek_sequence's last pass: the characters it reads as their ASCII neighbours.
ASCII = str.maketrans({**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
                       **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
                       **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
                       **dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f"
                                       "\u3000", " ")})
PASSES = (lambda a, b: a == b, lambda a, b: a.rstrip() == b.rstrip(), lambda a, b: a.strip() == b.strip(),
          lambda a, b: a.strip().translate(ASCII) == b.strip().translate(ASCII))
Chunk = tuple[list[str], list[str], list[str], bool]  # (@@ context lines, old lines, new lines, at end of file)


def applied(before: str, body: str) -> str | None:
    """The text ``before`` leaves once an update section's ``body`` (its lines after the header) is applied;
    None where Codex would refuse the patch or not find a chunk."""
    rows = body.split("\n")
    if rows and rows[-1] == "":
        rows.pop()  # the newline ending the section's last line, not a line of its own
    chunks = _chunks([row.removesuffix("\r") for row in rows])
    if not chunks:
        return None
    lines = before.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    replacements = _replacements(lines, chunks)
    if replacements is None:
        return None
    for at, size, new in reversed(replacements):
        lines[at:at + size] = new
    if not lines or lines[-1] != "":
        lines.append("")
    return "\n".join(lines)


def _chunks(rows: list[str]) -> list[Chunk] | None:
    chunks: list[Chunk] = []
    i = 0
    while i < len(rows):
        if not rows[i].strip():  # blank lines between chunks
            i += 1
            continue
        parsed = _chunk(rows, i, first=not chunks)
        if parsed is None:
            return None
        chunk, i = parsed
        chunks.append(chunk)
    return chunks


def _chunk(rows: list[str], i: int, first: bool) -> tuple[Chunk, int] | None:
    """The chunk starting at row ``i``, and the row after it; None for one Codex refuses."""
    contexts: list[str] = []
    marked = False
    while i < len(rows) and (rows[i] == "@@" or rows[i].startswith("@@ ")):
        marked = True
        contexts.extend([rows[i][3:]] if rows[i] != "@@" else [])
        i += 1
    if (not marked and not first) or i >= len(rows):
        return None
    old: list[str] = []
    new: list[str] = []
    eof = False
    start = i
    while i < len(rows):
        row = rows[i]
        if row == EOF_MARKER or row[:1] not in ("", " ", "+", "-"):
            if i == start:
                return None
            eof = row == EOF_MARKER
            i += 1 if eof else 0
            break
        if row[:1] != "+":
            old.append(row[1:])
        if row[:1] != "-":
            new.append(row[1:])
        i += 1
    return (contexts, old, new, eof), i


def _replacements(lines: list[str], chunks: list[Chunk]) -> list[tuple[int, int, list[str]]] | None:
    out: list[tuple[int, int, list[str]]] = []
    cursor = 0
    for contexts, old, new, eof in chunks:
        for context in contexts:
            found = _seek(lines, [context], cursor, False)
            if found is None:
                return None
            cursor = found + 1
        if not old:  # added lines only: at the end, before a last empty line
            out.append((len(lines) - 1 if lines and lines[-1] == "" else len(lines), 0, new))
            continue
        found = _seek(lines, old, cursor, eof)
        if found is None and old[-1] == "":  # the empty line that stands for the file's last newline
            old, new = old[:-1], new[:-1] if new and new[-1] == "" else new
            found = _seek(lines, old, cursor, eof)
        if found is None:
            return None
        out.append((found, len(old), new))
        cursor = found + len(old)
    return out


def _seek(lines: list[str], wanted: list[str], start: int, eof: bool) -> int | None:
    if not wanted:
        return start
    if len(wanted) > len(lines):
        return None
    found = _first(lines, wanted, len(lines) - len(wanted) if eof else start)
    return _first(lines, wanted, start) if found is None and eof else found


def _first(lines: list[str], wanted: list[str], start: int) -> int | None:
    for same in PASSES:
        for i in range(start, len(lines) - len(wanted) + 1):
            if all(same(lines[i + j], w) for j, w in enumerate(wanted)):
                return i
    return None
