"""Approval records (pure): what is signed, and which records speak to a given change.

An approval is a line of `.harness/approvals.jsonl`. Its ``signature`` is an SSH signature
(git's own mechanism, `ssh-keygen -Y sign`) over :func:`payload` — the record's other
fields, canonically encoded — so no field can be edited after signing, and a line
written by hand (or by an agent) without the approver's key counts for nothing.

A gate-, config- or signers-change approval is *bound*: besides the digest of the file it lets
in, it names the repository (:func:`harness.gitio.history.History.repository_id`, its first root
commit) and ``from_digest``, the sha-256 of the file it loosens as the trusted parent has it (of
nothing when absent). It replays neither into another repository nor onto another starting file.
A record written before binding existed has neither field (:func:`is_bound`): it is verified as it
was signed, and counts for its exact file digest only.
"""

from __future__ import annotations

import hashlib
import json

from harness.core.limits import decode_json

NAMESPACE = "harness-approval"  # what a signature is for: never valid as a commit or file signature
SIGNED_FIELDS = ("kind", "digest", "changes", "approved_by", "signer", "os_user", "at")
BOUND_FIELDS = ("repository", "from_digest")  # signed too, when present (records since binding)
KINDS = ("gate-change", "config-change", "signers-change", "suite-change", "history-rewrite")
# The file each bound kind loosens. (A suite-change binds the repository and base in its digest.)
FILES = {"gate-change": ".harness/gate.yaml", "config-change": ".harness/config.yaml",
         "signers-change": ".harness/allowed_signers"}


def payload(record: dict) -> bytes:
    """The exact bytes a signature covers: a bound record's binding too (dropping it from a
    signed line breaks the signature, as adding one to a legacy line does)."""
    fields = SIGNED_FIELDS + BOUND_FIELDS if is_bound(record) else SIGNED_FIELDS
    return json.dumps({k: record.get(k) for k in fields}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def is_bound(record: dict) -> bool:
    """Whether ``record`` names a repository and a starting file (either field makes it bound:
    one without the other then fails the binding check, never falls back to legacy)."""
    return any(k in record for k in BOUND_FIELDS)


def binding(repository: str | None, from_raw: bytes | None) -> dict:
    """The bound fields of an approval given in ``repository`` (None: no commit yet) against a
    file whose trusted (parent) bytes are ``from_raw`` (None: absent, hashed as empty)."""
    return {"repository": repository, "from_digest": hashlib.sha256(from_raw or b"").hexdigest()}


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
