"""Which text of a committed `.harness/` file the harness wrote, for the last check's secret scan.

The harness's own words look like what a person could type: an `[REDACTED:env:NAME]` marker of a
secret-named variable of the shell that recorded a run, the byte counts of a log's `[harness: N bytes …]`
note. Read strictly, a project's pattern as broad as `[a-z]+_[a-z]+` or `[0-9]{7,10}` refuses them in
the files they stand in; read leniently, the same shapes typed by hand carry a project's value past the
check (read 64's F-0210, read 69's follow-up: a file's *name* proved nothing). So leniency follows what
the commit itself binds: a task's ledger is the harness's file (in a folder the checks read as a task's: read
72's F-0238); an evidence record is one
when its task's ledger records its digest, its log and list of cases when that record names theirs; a
value of a file rendered from the ledger (a requirement's statement, a finding's output tail) is one when
the ledger holds it. Everything else is read strictly: the approvals too, to which anyone may append a
line (F-0237), and task spec links; the harness writes the env markers of those without the variable's name
(secrets_check.unnamed_env). A ledger line forged by hand stays out of reach: its chain is hashed, not
signed (docs/threat-model.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cached_property
from typing import Any

from harness import paths
from harness.core.redact import Redactor
from harness.store import reader
from harness.store.evidence_files import digest
from harness.store.secrets_check import flagged_values, secrets_in

TYPE_CHECKING = False
if TYPE_CHECKING:
    from harness.store.source import Source

_IN_TASK = re.compile(rf"({re.escape(paths.TASKS)}/[^/]+)/(events\.jsonl|[a-z]+\.yaml|findings/F-[0-9]+\.yaml"
                      r"|evidence/([^/]+)\.(json|log|cases))")


def secrets_found(rel: str, raw: bytes, new: Source, red: Redactor) -> list[tuple[int, str]]:
    """(line, rule) of each secret in ``rel`` (holding ``raw`` in the commit ``new``), the harness's own
    words read as its own where the commit binds them to it."""
    found = secrets_in(rel, raw, red)
    if not found:  # the strict reading finds all the lenient one does, and more: nothing to tell apart
        return found
    m = _IN_TASK.fullmatch(rel)
    if m is None or not reader.is_task(new, m.group(1).rpartition("/")[2]):  # a folder no check reads as a task (F-0238)
        return found
    ledger = _Ledger(new, m.group(1))
    name, etype, kind = m.group(2), m.group(3), m.group(4)
    if name == "events.jsonl":
        return secrets_in(rel, raw, red, own=True)
    if etype is not None:
        return secrets_in(rel, raw, red, own=True) if ledger.binds(etype, kind, raw) else found
    held = ledger.strings
    lenient = {(line, rule) for line, rule, _ in flagged_values(rel, raw, red, own=True)}
    unheld = {(line, rule) for line, rule, value in flagged_values(rel, raw, red) if value not in held}
    return sorted(lenient | unheld)


class _Ledger:
    """A task's ledger as the commit holds it, read only when a question needs it."""

    def __init__(self, new: Source, folder: str) -> None:
        self.new, self.folder = new, folder

    @cached_property
    def events(self) -> list[dict]:
        raw = self.new.read(f"{self.folder}/events.jsonl") or b""
        out = []
        for line in raw.decode("utf-8", errors="replace").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the ledger's own check refuses it
            if isinstance(event, dict) and isinstance(event.get("data"), dict):
                out.append(event)
        return out

    @cached_property
    def strings(self) -> frozenset[str]:
        """Every text an event's data holds, each list of texts joined by lines (an argv, as the scan reports one),
        and each event's time: task.yaml's timestamps are its first and last event's, outside their data (a
        project pattern matching dates refused task.yaml when no data text held the same second)."""
        times = [event["ts"] for event in self.events if isinstance(event.get("ts"), str)]
        return frozenset([*_texts([event["data"] for event in self.events]), *times])

    def binds(self, etype: str, kind: str, raw: bytes) -> bool:
        """Whether ``raw`` is the evidence file of type ``etype`` (``kind``: json, log, cases) the ledger records."""
        digests = {e["data"].get("digest") for e in self.events
                   if e.get("type") == "evidence.collected" and e["data"].get("type") == etype}
        if kind == "json":
            return digest(raw) in digests
        record = self.new.read(f"{self.folder}/evidence/{etype}.json")
        if record is None or digest(record) not in digests:
            return False
        try:
            doc = json.loads(record)
        except ValueError:
            return False
        return isinstance(doc, dict) and doc.get(f"{kind}_digest") == digest(raw)


def _texts(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _texts(value)
    elif isinstance(data, list):
        if data and all(isinstance(v, str) for v in data):
            yield "\n".join(data)
        for value in data:
            yield from _texts(value)
