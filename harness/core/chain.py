"""The ledger's on-disk format: canonical JSON lines, each naming the hash of the one before.

Each line is ``{"seq", "ts", "type", "data", "prev"}`` where ``prev`` is the sha-256 of the
previous line's bytes (64 zeros for the first). This module knows the format only; what
the events mean, and which histories are legal, is :mod:`harness.core.replay`.
"""

from __future__ import annotations

import json

from harness.core.limits import decode_json
from harness.core.sha256 import sha256

GENESIS = "0" * 64
EVENT_KEYS = frozenset({"seq", "ts", "type", "data", "prev"})

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any, TypedDict

    class Event(TypedDict):
        """One ledger line, decoded."""

        seq: int
        ts: str
        type: str
        data: dict[str, Any]
        prev: str
else:  # a dict at run time, as it always was: making the TypedDict costs a session hook a millisecond or two
    Event = dict


class LedgerProblem(Exception):
    """An event that breaks the chain or the rules; carries the user-facing text and hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


def canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def line_hash(line: str) -> str:
    return sha256(line.encode("utf-8")).hexdigest()


def encode_event(seq: int, ts: str, etype: str, data: dict[str, Any], prev: str) -> str:
    return canonical({"seq": seq, "ts": ts, "type": etype, "data": data, "prev": prev})


def parse_lines(raw: bytes, name: str, first: int = 1, prev: str = GENESIS) -> list[tuple[str, Event]]:
    """Split and decode a ledger file, checking the hash chain and sequence numbers.

    ``first``, ``prev``: for the lines appended after a prefix already checked (the number of
    the first of them, and the hash of the prefix's last line): the same checks and messages as
    parsing the whole file, paid for the new lines only."""
    if raw and not raw.endswith(b"\n"):
        raise LedgerProblem(f"{name}: last line is incomplete (no trailing newline)")
    out: list[tuple[str, Event]] = []
    # Lines end in LF only: split on it alone (bytes.splitlines would also split on a CR, and
    # drop the CR of a CR LF before the line is hashed).
    for number, bline in enumerate(raw.split(b"\n")[:-1] if raw else [], start=first):
        if b"\r" in bline:
            raise LedgerProblem(f"{name}:{number}: a carriage return (CR LF line ending?) in a ledger line (refused): "
                                "the CLI writes LF only, and a line is hashed as its exact bytes",
                                hint="git may be converting line endings (core.autocrlf): mark `.harness/** -text` "
                                     "in .gitattributes and restore the file from git")
        try:
            line = bline.decode("utf-8")
            event = decode_json(line)
        except ValueError as exc:  # UnicodeDecodeError too; nesting and number limits as well
            raise LedgerProblem(f"{name}:{number}: not a JSON event ({exc})") from None
        # Checked through a flag, which leaves ``event`` typed Any: once the checks below pass it is an
        # Event, without typing.cast (importing typing is 4 ms of a command that reads a ledger).
        shaped = isinstance(event, dict) and set(event) == EVENT_KEYS
        if not shaped:
            raise LedgerProblem(f"{name}:{number}: an event has exactly seq, ts, type, data, prev")
        if event["prev"] != prev:
            raise LedgerProblem(
                f"{name}:{number}: broken hash chain — line {number} says the previous line hashes to "
                f"{str(event['prev'])[:12]}…, it hashes to {prev[:12]}… (line {number - 1} was rewritten)"
            )
        if event["seq"] != number:
            raise LedgerProblem(f"{name}:{number}: seq is {event['seq']!r}, expected {number}")
        if canonical(event) != line:
            raise LedgerProblem(f"{name}:{number}: not in canonical form (the CLI writes every line)")
        out.append((line, event))
        prev = line_hash(line)
    return out
