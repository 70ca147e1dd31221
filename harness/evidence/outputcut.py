"""Cut captured output down to size without leaving a fragment of a secret behind.

A cut through a token leaves a piece the redaction patterns may no longer recognise
(most of a 3 KB JWT is still a leaked JWT), so every cut of raw output lands on a
separator (newline, space, tab), wherever in the window the first one is. A window
with no separator at all is one unbroken token as far as we can tell: nothing of it is
kept, and a marker says what was left out. Redaction runs after the cut, on whole tokens.

A cut at the start can also drop the words a secret after it is known by (`Authorization:
Bearer`, `--password`, `password:`): the value, kept as the first word, would match no rule.
So the bytes just before such a cut are read with the kept ones, and what the rules find
across the cut is hidden in the kept part (read 56b's F-0114).
"""

from __future__ import annotations

import re

from harness.core.value_class import dataclass
from harness.core.wrapped_lines import TOKEN_CHARS
from harness.runner import TAIL_LEAD, Capture

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.core.redact import Redactor  # the caller's: loaded while the source is measured (evidence.record)

SEPARATORS = (b"\n", b" ", b"\t")
_FIT_TRIES = 4  # redactions of the kept part; markers rarely grow it more than once
_FIT_GUESSES = 16  # cheap size counts while choosing the kept part


# A token wrapped over lines has a separator at each of its line breaks, and a cut there kept its later lines, which no
# rule knows alone (a long JWT's payload and signature: read 150's F-0528); a cut passes over such breaks as over the
# token's own bytes, for at most this many bytes (a token is a few KB; past that, the first separator, as before).
MAX_WRAPPED = 8192
MIN_WRAPPED_LINE = 16  # a line of a wrapped token: at least this many token bytes before its break
_TOKEN_BYTES = frozenset("".join(TOKEN_CHARS).encode()) - frozenset(b"/+")  # a `/` is a path's more often than a token's
_PIECE = 64  # bytes of the next line read to judge it
_SEPARATOR = re.compile(rb"[\n \t]")


def cut_start(data: bytes) -> bytes:
    """``data`` begins mid-output: drop everything up to and including its first separator (not one inside a token
    wrapped over lines: :func:`_in_a_wrap`)."""
    first = None
    for m in _SEPARATOR.finditer(data):
        at = m.start()
        first = at if first is None else first
        if at - first > MAX_WRAPPED:
            break
        if not _in_a_wrap(data, at):
            return data[at + 1:]
    return data[first + 1:] if first is not None else b""


def cut_end(data: bytes) -> bytes:
    """``data`` ends mid-output: drop everything after its last separator (not one inside a token wrapped over
    lines)."""
    last, at = None, len(data)
    while (at := max(data.rfind(s, 0, at) for s in SEPARATORS)) >= 0:
        last = at if last is None else last
        if last - at > MAX_WRAPPED or not _in_a_wrap(data, at):
            return data[:at + 1] if last - at <= MAX_WRAPPED else data[:last + 1]
    return data[:last + 1] if last is not None else b""


def _in_a_wrap(data: bytes, at: int) -> bool:
    """Whether the separator at ``at`` is a line break inside a token wrapped over lines, or a blank or a prefix's
    separator before the next piece of it (:func:`_piece_after`)."""
    if data[at] == 0x0A:
        return _piece_after(data, at) >= 0
    nl = data.rfind(b"\n", 0, at)
    return nl >= 0 and _piece_after(data, nl) > at


def _piece_after(data: bytes, nl: int) -> int:
    """Where the next piece of a token wrapped over lines starts when the line break at ``nl`` is inside one, else -1:
    :data:`MIN_WRAPPED_LINE` or more token bytes before it (or token bytes back to where ``data`` starts: a cut line; a
    `\\` continuation between), and on the next line, past a prefix it shares with the line before or after it (a
    service's name, a timestamp, a quote: read 152's F-0534) and its indent, a secret's piece: token bytes alone on
    their line or as many as that, in upper and lower case with a digit, as encoded secrets are written. Not a list of
    paths (`/`), test ids (`::`), names or commit ids, which a cut over-reaching dropped whole (read 152's F-0535); not
    base64 with `/` or `+` in it either (named in docs/threat-model.md)."""
    from harness.core.wrapped_lines import secret_like, shared_prefix

    end = nl - 1 if nl and data[nl - 1] == 0x0D else nl
    end -= 1 if end and data[end - 1] == 0x5C else 0
    before = _token_run(data[max(end - MIN_WRAPPED_LINE, 0):end][::-1])
    if before < MIN_WRAPPED_LINE and before != end:
        return -1
    line, after = (_line_at(data, start) for start in (nl + 1, data.find(b"\n", nl + 1, nl + 1 + _PIECE * 4) + 1))
    before_nl = data.rfind(b"\n", max(nl - _PIECE * 4, 0), nl)
    previous = _line_at(data, before_nl + 1) if before_nl >= 0 else ""  # unknown where it starts: no prefix read
    prefix = max(shared_prefix(previous, line), shared_prefix(line, after) if after else 0)
    rest = line[prefix:].lstrip(" \t")
    piece = rest[:_token_run(rest.encode("utf-8", "surrogateescape"))]
    if (len(piece) >= MIN_WRAPPED_LINE or (piece and piece == rest.rstrip("\r"))) and secret_like(piece):
        return nl + 1 + len(line[:len(line) - len(rest)].encode("utf-8", "surrogateescape"))
    return -1


def _line_at(data: bytes, start: int) -> str:
    """The line of ``data`` that starts at ``start`` (at most :data:`_PIECE` times four bytes of it), as text; "" for
    none (``start`` 0 after a failed find: no line there)."""
    if start <= 0 or start >= len(data):
        return ""
    stop = data.find(b"\n", start, start + _PIECE * 4)
    return data[start:stop if stop >= 0 else start + _PIECE * 4].decode("utf-8", "surrogateescape").rstrip("\r")


def _token_run(data: bytes) -> int:
    """How many token bytes ``data`` starts with."""
    return next((i for i, byte in enumerate(data) if byte not in _TOKEN_BYTES), len(data))


def unbroken(n: int) -> str:
    return f"[harness: {n} bytes of output without a line break omitted]"


CONTEXT = TAIL_LEAD  # bytes before a cut read for the words a secret after it is known by (`Authorization: Bearer `)
LOOKAHEAD = 128    # bytes after it read with them; a secret still going on there is hidden to its token's end


def across_cut(before: bytes, kept: bytes, redactor: Redactor) -> bytearray:
    """A flag per byte of ``kept`` (1: hide it) for each secret the rules find only with the end of ``before``,
    the output just before the cut: its match starts there and its secret reaches past the cut. A secret
    still going on where :data:`LOOKAHEAD` ends is hidden up to the next separator (its token's end)."""
    flags = bytearray(len(kept))
    context, ahead = before[-CONTEXT:], kept[:LOOKAHEAD]
    if not context or not kept:
        return flags
    # `before` ends at the cut's separator (or where the output is whole): its text ends on a character's end.
    cut = len(context.decode("utf-8", "surrogateescape"))
    text = (context + ahead).decode("utf-8", "surrogateescape")
    for m_start, _, start, end in redactor.secret_spans(text):
        if m_start < cut < end:
            first = len(text[cut:max(start, cut)].encode("utf-8", "surrogateescape"))
            last = len(text[cut:end].encode("utf-8", "surrogateescape"))
            if last >= len(ahead) and len(kept) > len(ahead):  # it may go on past what was read
                rest = cut_start(kept[last:])  # what follows the next separator
                last = len(kept) - len(rest) if rest else len(kept)
            flags[first:last] = b"\x01" * (last - first)
            for start, stop in _wrapped_on(kept, last):  # its wrapped lines, each hidden on its own (F-0539)
                flags[start:stop] = b"\x01" * (stop - start)
    return flags


def _wrapped_on(kept: bytes, end: int) -> list[tuple[int, int]]:
    """The pieces of a token that runs on past ``end`` over wrapped lines (:func:`_piece_after`): a secret found across
    a cut, hidden as far as the line's end, was read alone in its other lines, where no rule knows it (read 153's
    F-0539: the rest of a key after `Bearer `)."""
    out: list[tuple[int, int]] = []
    first = end
    while kept.startswith(b"\n", end) or kept.startswith(b"\r\n", end):
        nl = kept.index(b"\n", end)
        start = _piece_after(kept, nl)
        if start < 0 or start - first > MAX_WRAPPED:
            break
        end = start + _token_run(kept[start:start + MAX_WRAPPED])
        out.append((start, end))
    return out


def hidden(kept: bytes, flags: bytes | bytearray, label: bytes = b"[REDACTED:split_secret]") -> bytes:
    """``kept`` with each run of flagged bytes one marker."""
    if 1 not in flags:
        return kept
    out, i = bytearray(), 0
    while i < len(kept):
        if flags[i]:
            while i < len(kept) and flags[i]:
                i += 1
            out += label
        else:
            out.append(kept[i])
            i += 1
    return bytes(out)


def tail_text(cap: Capture, limit: int, redactor: Redactor, split: Split | None = None) -> str:
    """The redacted end of ``cap``, at most about ``limit`` bytes of output; with ``split`` (one of
    :func:`stream_tails`), without a piece of a secret the command wrote partly to the other stream."""
    whole = cap.tail if cap.truncated else cap.head + cap.tail
    if len(whole) <= limit and not cap.truncated:
        kept = whole
    else:
        window = whole[-limit:]
        kept = cut_start(window)
        if not kept:
            return unbroken(len(window))
    lost = across_cut(cap.before_tail + whole[:len(whole) - len(kept)], kept, redactor)  # before_tail: only a gap's
    if split is not None:
        kept = split.apply(kept, lost)
        if kept == NOT_VOUCHED:
            return NOT_VOUCHED.decode()  # whole: it says why the tail is missing
    else:
        kept = hidden(kept, lost, b"[REDACTED:cut_secret]")
    return _at_most(redactor.redact_bytes(kept), limit)


@dataclass(frozen=True)
class Split:
    """What the combined output says of one stream's end: which of its last ``len(flags)`` bytes belong
    to a secret written partly to the other stream (1), and whether those are all the stream's kept
    bytes the combined output holds (``covered``: False when the stream's earlier bytes fell in the
    part of the combined output that was not kept, where no one can tell)."""

    flags: bytes
    covered: bool

    def apply(self, kept: bytes, lost: bytes | bytearray = b"") -> bytes:
        """``kept`` (the stream's last bytes) with each run of flagged bytes a marker (flagged here, or in
        ``lost``: :func:`across_cut`'s flags of ``kept``), and without the bytes before the ones the combined
        output vouches for."""
        if len(kept) > len(self.flags) and not self.covered:
            shorter = cut_start(kept[-len(self.flags):]) if self.flags else b""
            if not shorter:
                return NOT_VOUCHED
            lost, kept = lost[len(kept) - len(shorter):], shorter
        flags = self.flags[-len(kept):] if kept else b""
        if lost and 1 in lost:
            flags = bytes(a | b for a, b in zip(flags.rjust(len(kept), b"\0"), lost))
        return hidden(kept, flags)


NOT_VOUCHED = b"[harness: the end of this stream fell where the combined output was cut; the log keeps what was kept]"


def stream_tails(out: Capture, err: Capture, combined: Capture, limit: int, redactor: Redactor) -> tuple[str, str]:
    """The redacted ends of stdout and stderr. Each is redacted alone, so a token the command wrote half
    to each (a terminal shows it whole) would be kept in two halves no rule knows; the combined output,
    where it is whole, says which bytes of each stream are such a secret's (#28's task F-0154)."""
    if not (out.total_bytes and err.total_bytes) or len(combined.origin) != len(combined.head) + len(combined.tail):
        return tail_text(out, limit, redactor), tail_text(err, limit, redactor)
    totals = (out.total_bytes, err.total_bytes)
    if combined.truncated:  # two parts kept, not contiguous: a stream that ended early ends in the first
        # The bytes just before the tail are read with it: a secret's words there, on the other stream (F-0129).
        lead = (combined.before_tail, combined.before_origin)
        splits = _splits(combined.tail, combined.origin[len(combined.head):], totals, limit, redactor, lead)
        head = _splits(combined.head, combined.origin[:len(combined.head)], totals, limit, redactor)
        splits = tuple(h if not s.flags and h.covered else s for s, h in zip(splits, head))  # type: ignore[assignment]
    else:
        splits = _splits(combined.head + combined.tail, combined.origin, totals, limit, redactor)
    return tail_text(out, limit, redactor, splits[0]), tail_text(err, limit, redactor, splits[1])


def _splits(data: bytes, origin: bytes, totals: tuple[int, int], limit: int, redactor: Redactor,
            lead: tuple[bytes, bytes] = (b"", b"")) -> tuple[Split, Split]:
    """Each stream's :class:`Split`, read from one contiguous part of the combined output (``origin``: the
    stream of each of its bytes): the stream's last bytes in it, and whether it holds all of them. ``lead``: the
    bytes just before that part and their streams, read with it for a secret's words, never counted in it."""
    before, before_origin = lead if len(lead[0]) == len(lead[1]) else (b"", b"")
    marks = _crossing(before + data, before_origin + origin, redactor)
    marks = marks[len(before):] if marks is not None else None
    counts = [origin.count(s) for s in (0, 1)]
    flags: list[bytearray] = [bytearray(), bytearray()]
    if marks is None:
        flags = [bytearray(min(counts[s], limit)) for s in (0, 1)]
    else:
        for i in range(len(data) - 1, -1, -1):  # backwards: a stream's last bytes are the tail's
            s = origin[i]
            if len(flags[s]) < limit:
                flags[s].append(marks[i])
            if len(flags[0]) >= min(counts[0], limit) and len(flags[1]) >= min(counts[1], limit):
                break
        flags = [f[::-1] for f in flags]
    return tuple(Split(bytes(flags[s]), counts[s] == totals[s]) for s in (0, 1))  # type: ignore[return-value]


def _crossing(data: bytes, origin: bytes, redactor: Redactor) -> bytearray | None:
    """A mark per byte of ``data`` that belongs to a secret found across both streams (the secret, or
    the context it is known by, `password=` on one and its value on the other); None for none. Two pipes
    keep no order between them: a capture not scheduled while the command writes reads them in either
    order, so a secret is also looked for with each two neighbouring runs of the streams the other way
    round (F-0086)."""
    marks = _marked(data, origin, redactor, range(len(data)), None, len(data))
    for later, earlier in _swapped_neighbours(origin, len(data)):
        where = [*later, *earlier]
        piece = b"".join(data[i:i + 1] for i in where)
        marks = _marked(piece, bytes(origin[i] for i in where), redactor, where, marks, len(data))
    return marks


SWAP_WINDOW = 512     # bytes of each of two neighbouring runs joined the other way round: past a token's length
SWAP_REGION = 16384   # the end of the combined capture looked at so: where the tails are taken from
SWAP_JOINS = 64       # the last neighbouring runs joined so: output switching streams at every byte costs no more


def _swapped_neighbours(origin: bytes, size: int) -> list[tuple[range, range]]:
    """(the end of the later run, the start of the earlier) for each two neighbouring runs of different streams
    in the last :data:`SWAP_REGION` bytes: joined so, they are the order the command may have written them in."""
    start = max(0, size - SWAP_REGION)
    bounds = [start, *(i for i in range(start + 1, size) if origin[i] != origin[i - 1]), size]
    return [(range(max(edge, end - SWAP_WINDOW), end), range(begin, min(edge, begin + SWAP_WINDOW)))
            for begin, edge, end in zip(bounds, bounds[1:], bounds[2:])][-SWAP_JOINS:]


def _marked(data: bytes, origin: bytes, redactor: Redactor, where: range | list[int], marks: bytearray | None,
            size: int) -> bytearray | None:
    """``marks`` with the bytes of ``data`` (at the places ``where`` holds, in a capture of ``size``) that
    belong to a secret whose match spans both streams."""
    text = data.decode("utf-8", "surrogateescape")
    spans = redactor.secret_spans(text)
    at = byte = 0
    offset = {}
    for point in sorted({p for span in spans for p in span}):  # characters to bytes, in one pass
        byte += len(text[at:point].encode("utf-8", "surrogateescape"))
        at, offset[point] = point, byte
    for m_start, m_end, start, end in spans:
        seen = origin[offset[m_start]:offset[m_end]]
        if 0 in seen and 1 in seen:
            marks = marks if marks is not None else bytearray(size)
            for i in range(offset[start], offset[end]):
                marks[where[i]] = 1
    return marks


def _at_most(text: str, limit: int) -> str:
    """The end of ``text`` in at most ``limit`` bytes of UTF-8. Markers and ``\\xNN`` escapes make
    redacted text longer than the output it came from (a pattern matching each character of a
    megabyte tail wrote 17 MB); the record must stay within what its reader accepts. Cutting only
    drops text that was already redacted."""
    raw = text.encode("utf-8", "surrogatepass")
    return text if len(raw) <= limit else raw[-limit:].decode("utf-8", "ignore")


def log_text(cap: Capture, redactor: Redactor, limit: int) -> tuple[str, bool]:
    """The redacted log: all of ``cap`` if its text fits ``limit`` bytes of UTF-8, else
    a head and a tail around one marker, the whole no more than ``limit`` bytes.

    The limit holds for the text as written: undecodable bytes (written as ``\\xNN``)
    and redaction markers make the text longer than the output it came from. What to
    keep is chosen from the escaped size (a cheap count), and only what is kept is
    redacted: time grows with the bytes kept, not with the bytes the command printed.
    """
    if not cap.truncated and escaped_size(cap.head) + escaped_size(cap.tail) <= limit:
        text = redactor.redact_bytes(cap.head + cap.tail)
        if _size(text) <= limit:
            return text, False
    head, tail = cut_end(cap.head), cut_start(cap.tail)
    room = limit - _size(_marker(cap.total_bytes, cap.total_bytes))
    budget = room
    for _ in range(_FIT_TRIES):
        # The end of a log says most about a failure: the tail keeps its room, and gives
        # up half only when both parts overflow.
        tail = _fit(tail, max(budget // 2, budget - escaped_size(head)), keep_end=True)
        head = _fit(head, budget - escaped_size(tail), keep_end=False)
        head_text, tail_text_ = redactor.redact_bytes(head), redactor.redact_bytes(tail)
        over = _size(head_text) + _size(tail_text_) - room
        if over <= 0:
            break
        budget -= over  # redaction markers made the text longer: keep that much less
    else:
        head, tail, head_text, tail_text_ = b"", b"", "", ""
    lost = across_cut(cap.before_tail + cap.tail[:len(cap.tail) - len(tail)], tail, redactor)  # tail: cap.tail's end
    if 1 in lost:  # its marker may be longer than what it hides: the text's end, within the room left
        tail_text_ = _at_most(redactor.redact_bytes(hidden(tail, lost, b"[REDACTED:cut_secret]")), room - _size(head_text))
    omitted = cap.total_bytes - len(head) - len(tail)
    return head_text + _marker(omitted, cap.total_bytes) + tail_text_, True


def _marker(omitted: int, total: int) -> str:
    return f"\n[harness: {omitted} bytes of output omitted here; {total} bytes in all]\n"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def escaped_size(raw: bytes) -> int:
    """The UTF-8 size of ``raw`` as the redactor writes it (each undecodable byte as
    ``\\xNN``), before redaction, counted without building that text."""
    undecodable = len(raw) - len(raw.decode("utf-8", errors="ignore").encode("utf-8"))
    return len(raw) + 3 * undecodable


def _fit(raw: bytes, budget: int, *, keep_end: bool) -> bytes:
    """The largest whole-token part of ``raw`` (its end, or its start) whose escaped size
    fits ``budget``. Guesses in proportion to the growth, which is not uniform (binary
    grows 4x, prose 1x); each guess costs one cheap count, never a redaction."""
    for _ in range(_FIT_GUESSES):
        size = escaped_size(raw)
        if size <= budget:
            return raw
        # A little under the estimate (no byte grows past 4): a guess that lands just over
        # the budget would cost another count, and another.
        n = len(raw) * max(budget, 0) // size
        n -= min(n // 64, (size - budget) // 4)
        if n <= 0:
            break
        raw = cut_start(raw[-n:]) if keep_end else cut_end(raw[:n])
    return b""
