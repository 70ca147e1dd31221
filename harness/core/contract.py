"""The task contract's completeness rules, pure: replay and `contract check` share them."""

from __future__ import annotations

from typing import Any

from harness.core.cases import is_case

# Why a must requirement without a test case is a dead end under gate.yaml's must_have_tests, and the way out.
UNTESTED_MUST = ("a must requirement names no test case in verified_by (gate.yaml requirements.must_have_tests): "
                 "name the test that fails without the change; a requirement that existing behaviour holds is what "
                 "pass_to_pass proves for every task: state it as an invariant verified_by [pass_to_pass]")


def tests_required(requirements_policy: dict[str, Any]) -> bool:
    """Whether the gate requires a must requirement to name its test cases: gate.yaml's
    requirements.must_have_tests, and must_verified (without it the gate skips must requirements)."""
    return bool(requirements_policy.get("must_have_tests") and requirements_policy.get("must_verified"))


def gaps(contract: dict[str, Any], must_have_tests: bool = False) -> list[str]:
    """Every must requirement without a verification plan (or, with ``must_have_tests``, without a test
    case in it: the gate would refuse it at the end and a requirement cannot be withdrawn), every
    incomplete invariant."""
    out = []
    for n, req in enumerate(contract["requirements"], start=1):
        label = req.get("id") or f"requirements[{n - 1}]"
        if req["priority"] == "must" and not req.get("verified_by"):
            out.append(f"{label} ({req['statement'][:60]}): a must requirement without a verification plan (verified_by)")
        elif req["priority"] == "must" and must_have_tests and not any(map(is_case, req["verified_by"])):
            out.append(f"{label} ({req['statement'][:60]}): {UNTESTED_MUST}")
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
