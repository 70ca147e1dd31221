"""Evidence files, checked against the digests their ledger events carry."""

from __future__ import annotations

from harness.core.limits import decode_json
from harness.core.sha256 import sha256
from harness.errors import HarnessError
from harness.store import validate
from harness.store.reader import LoadedTask

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.store.source import Source


def evidence_rel(task_dir: str, etype: str) -> str:
    return f"{task_dir}/evidence/{etype}.json"


def digest(raw: bytes) -> str:
    return sha256(raw).hexdigest()


def check_digests(src: Source, task: LoadedTask) -> list[str]:
    """Every evidence file must be exactly what its `evidence.collected` event recorded."""
    problems = []
    recorded = task.proj.evidence
    on_disk = {n[:-5] for n in src.listdir(f"{task.dir}/evidence") if n.endswith(".json")}
    for etype in sorted(on_disk | set(recorded)):
        rel = evidence_rel(task.dir, etype)
        raw = src.read(rel)
        if etype not in recorded:
            problems.append(f"{rel}: no evidence.collected event records this file (written by hand?) — use `harness evidence {etype}`")
        elif raw is None:
            problems.append(f"{rel}: missing, but the ledger records it (digest {recorded[etype]['digest'][:12]}…) — restore it or re-run `harness evidence {etype}`")
        elif digest(raw) != recorded[etype]["digest"]:
            problems.append(f"{rel}: digest differs from its evidence.collected event: the file was edited after it was recorded — re-run `harness evidence {etype}`")
        else:
            problems.extend(_check_log(src, task, etype, raw))
    return problems


def _check_log(src: Source, task: LoadedTask, etype: str, raw: bytes) -> list[str]:
    """The files beside a record (its log, its list of cases) must be the ones whose digests the
    record carries. A missing one is fine (logs may be gitignored); so is a record from before
    they had a digest."""
    try:
        doc = decode_json(raw)
        wants = {"log": doc.get("log_digest"), "cases": doc.get("cases_digest")}
    except (ValueError, AttributeError):
        return []  # not a JSON object: load_valid reports that
    problems = []
    for suffix, want in wants.items():
        rel = f"{task.dir}/evidence/{etype}.{suffix}"
        if not isinstance(want, str):
            continue
        # Hashed in chunks where the source can: a log may be as large as config allows.
        got = src.sha256(rel) if hasattr(src, "sha256") else _digest_or_none(src.read(rel))
        if got is not None and got != want:
            problems.append(f"{rel}: digest differs from the {suffix}_digest of {etype}.json: the {suffix} file was "
                            f"edited after it was recorded — re-run `harness evidence {etype}`")
    return problems


def _digest_or_none(raw: bytes | None) -> str | None:
    return None if raw is None else digest(raw)


def load_valid(src: Source, task: LoadedTask) -> dict[str, dict]:
    """The evidence records of a task, refusing (exit 2) any that fail the digest or schema."""
    problems = check_digests(src, task)
    if problems:
        raise HarnessError("; ".join(problems))
    records = {}
    for etype in task.proj.evidence:
        rel = evidence_rel(task.dir, etype)
        raw = src.read(rel) or b""
        try:
            doc = decode_json(raw)
        except ValueError as exc:
            raise HarnessError(f"{rel}: not JSON ({exc})") from None
        validate.check(doc, "evidence", rel, raw, src.valid_cache)
        if doc.get("run_id") != task.proj.evidence[etype]["run_id"] or doc.get("type") != etype:
            raise HarnessError(f"{rel}: run_id/type do not match the ledger's evidence.collected event")
        records[etype] = doc
    return records
