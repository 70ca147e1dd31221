"""Cut captured output down to size without leaving a fragment of a secret behind.

A cut through a token leaves a piece the redaction patterns may no longer recognise
(most of a 3 KB JWT is still a leaked JWT), so every cut of raw output lands on a
separator (newline, space, tab), wherever in the window the first one is. A window
with no separator at all is one unbroken token as far as we can tell: nothing of it is
kept, and a marker says what was left out. Redaction runs after the cut, on whole tokens.
"""

from __future__ import annotations

from harness.core.redact import Redactor
from harness.runner import Capture

SEPARATORS = (b"\n", b" ", b"\t")
_FIT_TRIES = 4  # redactions of the kept part; markers rarely grow it more than once
_FIT_GUESSES = 16  # cheap size counts while choosing the kept part


def cut_start(data: bytes) -> bytes:
    """``data`` begins mid-output: drop everything up to and including its first separator."""
    found = [i for i in (data.find(s) for s in SEPARATORS) if i >= 0]
    return data[min(found) + 1:] if found else b""


def cut_end(data: bytes) -> bytes:
    """``data`` ends mid-output: drop everything after its last separator."""
    return data[:max(data.rfind(s) for s in SEPARATORS) + 1]


def unbroken(n: int) -> str:
    return f"[harness: {n} bytes of output without a line break omitted]"


def tail_text(cap: Capture, limit: int, redactor: Redactor) -> str:
    """The redacted end of ``cap``, at most about ``limit`` bytes of output."""
    whole = cap.tail if cap.truncated else cap.head + cap.tail
    if len(whole) <= limit and not cap.truncated:
        return _at_most(redactor.redact_bytes(whole), limit)
    window = whole[-limit:]
    kept = cut_start(window)
    return _at_most(redactor.redact_bytes(kept), limit) if kept else unbroken(len(window))


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
