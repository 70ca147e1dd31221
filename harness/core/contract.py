"""The task contract's completeness rules, pure: replay and `contract check` share them."""

from __future__ import annotations

from typing import Any


def gaps(contract: dict[str, Any]) -> list[str]:
    """Every must requirement without a verification plan, every incomplete invariant."""
    out = []
    for n, req in enumerate(contract["requirements"], start=1):
        label = req.get("id") or f"requirements[{n - 1}]"
        if req["priority"] == "must" and not req.get("verified_by"):
            out.append(f"{label} ({req['statement'][:60]}): a must requirement without a verification plan (verified_by)")
    for n, inv in enumerate(contract.get("invariants") or [], start=1):
        label = inv.get("id") or f"invariants[{n - 1}]"
        missing = [k for k, key in (("category", "category"), ("severity", "severity"), ("verification", "verified_by"))
                   if not inv.get(key)]
        if missing:
            out.append(f"{label} ({inv['statement'][:60]}): invariant without {', '.join(missing)}")
    return out


def id_mismatches(contract: dict[str, Any]) -> list[str]:
    """Ids a contract supplies must be the ones assigned in order (REQ-001…, INV-001…)."""
    out = []
    for key, prefix in (("requirements", "REQ"), ("invariants", "INV")):
        for n, item in enumerate(contract.get(key) or [], start=1):
            if item.get("id") and item["id"] != f"{prefix}-{n:03d}":
                out.append(f"{key}[{n - 1}] says {item['id']}, but ids are assigned in order: it becomes {prefix}-{n:03d}")
    return out


def with_ids(contract: dict[str, Any]) -> dict[str, Any]:
    """The contract as recorded: ids assigned in order, defaults filled."""
    reqs = [{"id": f"REQ-{n:03d}", "statement": r["statement"], "priority": r["priority"],
             "source": r.get("source", "spec"), "verified_by": list(r.get("verified_by") or [])}
            for n, r in enumerate(contract["requirements"], start=1)]
    invs = [{"id": f"INV-{n:03d}", "statement": i["statement"], "category": i["category"],
             "severity": i["severity"], "verified_by": list(i["verified_by"])}
            for n, i in enumerate(contract.get("invariants") or [], start=1)]
    return {"acceptance_criteria": list(contract["acceptance_criteria"]), "requirements": reqs,
            "invariants": invs, "risks": list(contract.get("risks") or [])}
