"""A commit's finding files known to agree with the ledger, by the ids of their blobs: history work that follows the
change.

An audit or `harness metrics` loads a task at every commit that touches it, and the files of its findings are mostly
the same blobs from one commit to the next: reading, checking and comparing each of them again made a range's work
grow with the task's findings (a ledger of 10,000 events holding 2,000 findings cost audit 24.7x and metrics 30.2x
one of 22 events over the same 40 commits: self-found 35, F-0165). A blob's id
names its bytes, and a finding file's rendering is a function of its finding alone: a finding file found to agree
with the ledger's finding is kept with a copy of that finding, and at a later commit the same blob beside an equal
finding agrees again, without being read, checked or rendered (:func:`agreeing`, :func:`agreed`).

Kept in this process alone, and only what agreed. A working tree's files have no such id and are read every time.
"""

from __future__ import annotations

from harness import context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from harness.core.records import Finding
    from harness.store.source import Source

# Agreements kept (a copy of the finding and of the file's document each, some 5-10 KB for a finding as reviews write
# them): a task of four thousand findings fits; a walk past either bound starts over, reading again what it drops,
# rather than grow without end. Sizes are the documents' printed lengths, twice (the finding holds the same text);
# a file of over a sixteenth of the bound (a finding file may hold 8 MiB) is read every time instead.
KEPT = 4096
KEPT_BYTES = 64 * 1024 * 1024


def blob_id(src: Source, rel: str) -> str | None:
    """The id of the blob ``rel`` is in ``src`` when ``src`` is a commit's tree and ``rel`` a file there, else None."""
    oid = getattr(src, "oid", None)
    if oid is None or src.kind(rel) != "file":  # type: ignore[attr-defined]  # a tree source's, alone
        return None
    return oid(rel)


def agreeing(rel: str, oid: str | None, finding: Finding | None, cache: Path | None = None) -> dict | None:
    """The document of the finding file ``rel`` (blob ``oid``) when that blob was found to agree with a finding equal
    to ``finding``, read with every check run here or through ``cache``; None otherwise (it is read and compared). The
    one kept, not a copy: :func:`reader.load_task` puts it in the task's documents for the comparison, which skips it
    as known to agree (``LoadedTask.agreed``)."""
    if oid is None or finding is None:
        return None
    kept = context.process().agreed
    for key in ((rel, oid, None), (rel, oid, cache)) if cache is not None else ((rel, oid, None),):
        held = kept.get(key)
        if held is not None and held[0] == finding:
            return held[1]
    return None


def agreed(rel: str, oid: str, finding: Finding, doc: dict, cache: Path | None = None) -> None:
    """Keep that the finding file ``rel`` (blob ``oid``, read as ``doc``) agrees with ``finding``; ``cache``: the cache
    of valid digests the file was read through, whose word the schema check may have taken (the agreement serves
    readers of that cache alone: `harness audit`, which names none, trusts nothing the checkout holds, F-0166)."""
    memo = context.process()
    size = 2 * len(repr(doc))
    if size > KEPT_BYTES // 16:
        return
    if len(memo.agreed) >= KEPT or memo.agreed_bytes + size > KEPT_BYTES:
        memo.agreed.clear()
        memo.agreed_bytes = 0
    memo.agreed[rel, oid, cache] = (_copy(finding), _copy(doc))
    memo.agreed_bytes += size


def forget() -> None:
    memo = context.process()
    memo.agreed.clear()
    memo.agreed_bytes = 0


def _copy(data: Any) -> Any:
    """``data`` (a finding, a parsed document) copied so that it shares nothing mutable: mappings, lists and immutable
    scalars here, at a fraction of deepcopy's cost; anything else by deepcopy."""
    kind = type(data)
    if kind is dict:
        return {k: _copy(v) for k, v in data.items()}
    if kind is list:
        return [_copy(v) for v in data]
    if kind in _IMMUTABLE:
        return data
    import copy

    return copy.deepcopy(data)


_IMMUTABLE = frozenset({str, int, float, bool, type(None)})
