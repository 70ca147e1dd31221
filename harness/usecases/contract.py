"""The task contract: acceptance criteria, requirements, invariants, risks, and
a verification plan naming the evidence type that verifies each requirement and invariant."""

from __future__ import annotations

from typing import Any

from harness.core.contract import gaps, id_mismatches, with_ids
from harness.store import validate, yamlio

__all__ = ["events", "gaps", "id_mismatches", "load", "with_ids"]


def load(raw: bytes, name: str) -> dict[str, Any]:
    doc = yamlio.parse(raw, name)
    validate.check(doc, "contract", name, raw)
    return doc["contract"]


def events(contract: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The events that apply ``contract`` (replay refuses them unless the task is new)."""
    recorded = with_ids(contract)
    out: list[tuple[str, dict]] = [("contract.applied", {"contract": recorded})]
    out += [("requirement.added", {k: r[k] for k in ("id", "statement", "priority", "source")}) for r in recorded["requirements"]]
    out += [("invariant.added", {k: i[k] for k in ("id", "statement", "category", "severity")}) for i in recorded["invariants"]]
    out += [("task.transitioned", {"from": "CREATED", "to": "SPECIFYING", "reason": "contract applied"}),
            ("task.transitioned", {"from": "SPECIFYING", "to": "PLANNED", "reason": "contract applied"})]
    return out
