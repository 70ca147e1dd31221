"""Approval records (pure): what is signed, and which records speak to a given change.

An approval is a line of `.harness/approvals.jsonl`. Its ``signature`` is an SSH signature
(git's own mechanism, `ssh-keygen -Y sign`) over :func:`payload` — the record's other
fields, canonically encoded — so no field can be edited after signing, and a line
written by hand (or by an agent) without the approver's key counts for nothing.

A gate-, config- or signers-change approval is *bound*: besides the digest of the file it lets
in, it names the repository (:func:`harness.gitio.revisions.History.repository_id`, its first root
commit) and ``from_digest``, the sha-256 of the file it loosens as the trusted parent has it (of
nothing when absent). It replays neither into another repository nor onto another starting file.
A record written before binding existed has neither field (:func:`is_bound`): it is verified as it
was signed, and counts for its exact file digest only.
"""

from __future__ import annotations

import json

from harness import paths
from harness.core.limits import is_text, json_object, type_problem
from harness.core.sha256 import sha256

NAMESPACE = "harness-approval"  # what a signature is for: never valid as a commit or file signature
SIGNED_FIELDS = ("kind", "digest", "changes", "approved_by", "signer", "os_user", "at")
BOUND_FIELDS = ("repository", "from_digest")  # signed too, when present (records since binding)
KINDS = ("gate-change", "config-change", "signers-change", "suite-change", "history-rewrite")
# The file each bound kind loosens. (A suite-change binds the repository and base in its digest.)
FILES = {"gate-change": paths.GATE, "config-change": paths.CONFIG,
         "signers-change": paths.ALLOWED_SIGNERS}


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
    return {"repository": repository, "from_digest": sha256(from_raw or b"").hexdigest()}


# What each field of a record is (absent or null: as if unsigned, the verifier says so).
FIELD_TYPES: dict[str, tuple[type, ...]] = {**{k: (str,) for k in (*SIGNED_FIELDS, *BOUND_FIELDS) if k != "changes"},
                                            "changes": (list,), "signature": (str,)}


def record_problem(record: dict) -> str | None:
    """Why ``record`` is not an approval the CLI could have written (a field of another type, a
    change that is not text), or None. Such a record counts as none, whatever it claims."""
    problem = type_problem(record, FIELD_TYPES)
    if problem:
        return problem
    if not all(is_text(c) for c in record.get("changes") or []):
        return "field changes holds a value that is not text"
    return None


def _entries(raw: bytes | None) -> list[tuple[int, dict, str | None]]:
    """(line number, JSON object, why it is no approval or None) for each object line."""
    out = []
    # Lines end in LF: str.splitlines would also split inside a line, on U+2028 and the like.
    for number, line in enumerate((raw or b"").split(b"\n"), start=1):
        try:
            entry = json_object(line)
        except ValueError:  # not an object, invalid UTF-8, deep nesting, huge numbers, lone surrogates
            continue
        out.append((number, entry, record_problem(entry)))
    return out


def records(raw: bytes | None) -> list[dict]:
    """The well-formed records of an approvals.jsonl: JSON objects whose every field has its type
    (others are not approvals at all)."""
    return [entry for _, entry, problem in _entries(raw) if problem is None]


def malformed_claims(raw: bytes | None, kind: str, digest: str) -> list[str]:
    """"line N: PROBLEM" for each object line claiming ``kind`` and ``digest`` that is no approval."""
    return [f"line {number}: {problem}" for number, entry, problem in _entries(raw)
            if problem is not None and entry.get("kind") == kind and entry.get("digest") == digest]


def candidates(raw: bytes | None, kind: str, digest: str) -> list[dict]:
    """Records claiming to approve exactly ``digest`` for ``kind`` (signed or not: the caller verifies)."""
    return [r for r in records(raw) if r.get("kind") == kind and r.get("digest") == digest]
