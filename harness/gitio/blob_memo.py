"""Blob contents this process has read, by object id, so a history walk inflates each once.

Walking a range, an audit or `harness metrics` reads a long ledger at the commit that appends to
it (as the new file: the append-only check, the ledger itself, the secrets scan) and again at the
next commit that touches it (as the parent's). git inflates and hash-checks the whole blob every
time: a 2 MB ledger costs ~10 ms a read, so a range's cost followed the ledger's length times the
reads. An object id names its bytes forever, so what was read stays true; the most recent blobs
are kept, bounded in bytes.
"""

from __future__ import annotations

from harness import context

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

KEPT_BYTES = 64 * 1024 * 1024  # at most this much content held
SMALL = 16 * 1024  # a blob under this inflates in microseconds: not worth a slot


def kept(oid: Any) -> bytes | None:
    """The content of blob ``oid`` if this process read it (and still holds it)."""
    blobs = context.process().blobs
    data = blobs.get(oid)
    if data is not None:
        blobs.move_to_end(oid)
    return data


def keep(oid: Any, data: bytes) -> bytes:
    """Remember ``data`` as blob ``oid``'s content; returns it."""
    if len(data) < SMALL or len(data) > KEPT_BYTES // 4:
        return data
    memo = context.process()
    if oid not in memo.blobs:
        memo.blobs[oid] = data
        memo.blob_bytes += len(data)
        while memo.blob_bytes > KEPT_BYTES:
            memo.blob_bytes -= len(memo.blobs.popitem(last=False)[1])
    return data


def forget() -> None:
    memo = context.process()
    memo.blobs.clear()
    memo.blob_bytes = 0
