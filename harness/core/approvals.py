"""Approval records (pure): what is signed, and which records speak to a given change.

An approval is a line of `.harness/approvals.jsonl`. Its ``signature`` is an SSH signature
(git's own mechanism, `ssh-keygen -Y sign`) over :func:`payload` — the record's other
fields, canonically encoded — so no field can be edited after signing, and a line
written by hand (or by an agent) without the approver's key counts for nothing.
"""

from __future__ import annotations

import json

from harness.core.limits import decode_json

NAMESPACE = "harness-approval"  # what a signature is for: never valid as a commit or file signature
SIGNED_FIELDS = ("kind", "digest", "changes", "approved_by", "signer", "os_user", "at")
KINDS = ("gate-change", "config-change", "signers-change", "suite-change")


def payload(record: dict) -> bytes:
    """The exact bytes a signature covers."""
    return json.dumps({k: record.get(k) for k in SIGNED_FIELDS}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def records(raw: bytes | None) -> list[dict]:
    """The well-formed records of an approvals.jsonl (others are not approvals at all)."""
    out = []
    for line in (raw or b"").decode("utf-8", "replace").splitlines():
        try:
            entry = decode_json(line)
        except ValueError:  # deep nesting and huge numbers too: not an approval
            continue
        if isinstance(entry, dict):
            out.append(entry)
    return out


def candidates(raw: bytes | None, kind: str, digest: str) -> list[dict]:
    """Records claiming to approve exactly ``digest`` for ``kind`` (signed or not: the caller verifies)."""
    return [r for r in records(raw) if r.get("kind") == kind and r.get("digest") == digest]
