"""Evidence files on disk, checked against the digests their ledger events carry."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from harness.errors import HarnessError
from harness.store import validate
from harness.store.layout import Layout


def evidence_path(task_dir: Path, etype: str) -> Path:
    return task_dir / "evidence" / f"{etype}.json"


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def check_digests(layout: Layout, task) -> list[str]:
    """Every evidence file must be exactly what its `evidence.collected` event recorded."""
    problems = []
    folder = task.dir / "evidence"
    recorded = task.proj.evidence
    on_disk = {p.stem for p in folder.glob("*.json")} if folder.is_dir() else set()
    for etype in sorted(on_disk | set(recorded)):
        path = evidence_path(task.dir, etype)
        rel = layout.rel(path)
        if etype not in recorded:
            problems.append(f"{rel}: no evidence.collected event records this file (written by hand?) — use `harness evidence {etype}`")
        elif etype not in on_disk:
            problems.append(f"{rel}: missing, but the ledger records it (digest {recorded[etype]['digest'][:12]}…) — restore it from git or re-run `harness evidence {etype}`")
        elif digest(path.read_bytes()) != recorded[etype]["digest"]:
            problems.append(f"{rel}: digest differs from its evidence.collected event: the file was edited after it was recorded — re-run `harness evidence {etype}`")
    return problems


def load_valid(layout: Layout, task) -> dict[str, dict]:
    """The evidence records of a task, refusing (exit 2) any that fail the digest or schema."""
    problems = check_digests(layout, task)
    if problems:
        raise HarnessError("INVALID_HARNESS_STATE: " + "; ".join(problems))
    records = {}
    for etype in task.proj.evidence:
        path = evidence_path(task.dir, etype)
        raw = path.read_bytes()
        try:
            doc = json.loads(raw)
        except ValueError as exc:
            raise HarnessError(f"{layout.rel(path)}: not JSON ({exc})") from None
        validate.check(doc, "evidence", layout.rel(path), raw)
        records[etype] = doc
    return records
