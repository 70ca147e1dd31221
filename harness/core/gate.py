"""The quality gate (seed §14): a pure function from task facts to a verdict.

No model judges anything here. Every blocker is a sentence naming the item and the rule;
PASS is only the absence of blockers across all ten checks, in the seed's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.core.findings import CLOSED as CLOSED_FINDING
from harness.core.findings import refuted_on

DECIDING_STATES = ("GATING", "CONVERGED", "DONE")
LABELS = {
    "build": "Build", "lint": "Lint", "typecheck": "Typecheck", "unit_test": "Unit Tests",
    "integration_test": "Integration Tests", "contract_test": "Contract Tests",
    "security": "Security", "review": "Review", "custom": "Custom",
}


@dataclass(frozen=True)
class GateInput:
    state: str
    requirements: Sequence[Mapping[str, Any]]  # Requirement: id, priority, status, evidence[]
    invariants: Sequence[Mapping[str, Any]]    # Invariant: id, severity, status, evidence[]
    evidence: dict[str, dict[str, Any]]        # type -> validated evidence record
    pending: dict[str, list[str]]   # type -> started_at of runs prepared but never recorded
    findings: Sequence[Mapping[str, Any]]      # Finding + regression_fresh
    policy: dict                    # the `gate:` mapping of gate.yaml
    tree: str                       # the source tree being judged
    # type -> the argv config.yaml names, through the redaction evidence records go through
    configured: dict[str, list[str]] = field(default_factory=dict)
    plan: dict[str, list[str]] = field(default_factory=dict)        # REQ/INV id -> contract's verified_by


@dataclass
class GateReport:
    verdict: str = "PASS"
    rows: list[tuple[str, str]] = field(default_factory=list)   # (check, result) table
    blockers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)              # reported, not blocking
    programs: dict[str, str] = field(default_factory=dict)      # type -> the program its evidence ran

    def block(self, text: str) -> None:
        self.blockers.append(text)
        self.verdict = "BLOCKED"

    def as_dict(self, tree: str) -> dict:
        return {"verdict": self.verdict, "tree": tree, "checks": [{"check": c, "result": r} for c, r in self.rows],
                "blockers": list(self.blockers), "notes": list(self.notes), "programs": dict(self.programs)}


def state_blocker(state: str) -> str:
    """The blocker a task outside the deciding states gets: it says only "not in GATING yet"."""
    return f"state {state}: the gate decides only in GATING"


def is_state_blocker(state: str, blocker: str) -> bool:
    return state not in DECIDING_STATES and blocker == state_blocker(state)


def evidence_status(record: dict | None, tree: str, pending: list[str],
                    configured: list[str] | None = None) -> tuple[str, str | None]:
    """(status, why) for one evidence type against ``tree``: PASS, FAIL, STALE, MISSING,
    UNKNOWN (a run never reported), CHANGED (the source changed while it ran), OTHER (not
    the command config.yaml names for this type)."""
    if pending:
        return "UNKNOWN", f"a run started {pending[-1]} never recorded an outcome (harness crashed or was killed)"
    if record is None:
        return "MISSING", None
    # Equal, element by element: a redaction marker stands for one known value, never for
    # whatever was there (a secret-named variable holding `/usr/bin/true` is not python3).
    if configured is not None and record.get("argv") != configured:
        return "OTHER", f"it ran `{record['command']}`, not the configured `{' '.join(configured)}`"
    if record["outcome"] != "passed":
        return "FAIL", f"{record['outcome']} (exit {record.get('exit_code')})"
    if record.get("tree_after"):
        return "CHANGED", (f"the source changed while it ran ({record['tree'][:12]} → {record['tree_after'][:12]}): "
                           "what passed is neither version for certain")
    if record["tree"] != tree:
        return "STALE", f"collected on source tree {record['tree'][:12]}, the source is now {tree[:12]}"
    return "PASS", None


PHRASE = {"PASS": "passing", "FAIL": "failing", "STALE": "stale", "MISSING": "missing",
          "UNKNOWN": "of unknown outcome", "CHANGED": "from a run during which the source changed",
          "OTHER": "not from the configured command"}


@dataclass(frozen=True)
class Judging:
    """What every check reads: the input, and each evidence type's status against the tree."""

    g: GateInput
    evidence: dict[str, tuple[str, str | None]]  # type -> (status, why)
    stale_ok: bool                                # gate.yaml evidence.must_match_head is false

    def usable(self, etype: str) -> bool:
        status = self.evidence[etype][0]
        return status == "PASS" or (self.stale_ok and status == "STALE" and self.g.evidence[etype]["outcome"] == "passed")


@dataclass
class CheckResult:
    rows: list[tuple[str, str]] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def files_valid(j: Judging) -> CheckResult:
    """1. The files are valid: the caller refused (exit 2) before the gate was reached."""
    return CheckResult([("Harness Files", "VALID")])


def state_allows(j: Judging) -> CheckResult:
    """2. The task is in a state the gate decides."""
    blockers = [] if j.g.state in DECIDING_STATES else [state_blocker(j.g.state)]
    return CheckResult([("State", j.g.state)], blockers)


def requirements_verified(j: Judging) -> CheckResult:
    """3. Every must requirement verified by usable evidence its contract planned; few uncovered."""
    g, pol, out = j.g, j.g.policy["requirements"], CheckResult()
    for req in g.requirements:
        if req["priority"] != "must" or not pol["must_verified"]:
            continue
        if req["status"] != "verified":
            out.blockers.append(f"{req['id']} not verified")
            continue
        out.blockers += [f"{req['id']} cites {t} evidence that is {PHRASE[j.evidence[t][0]]}"
                         for t in req["evidence"] if not j.usable(t)]
        out.blockers += _plan_gaps(req, g.plan)
    uncovered = [q["id"] for q in g.requirements if q["priority"] != "could" and not q["evidence"]]
    if len(uncovered) > pol["uncovered_allowed"]:
        out.blockers.append(f"{len(uncovered)} requirement(s) cite no evidence: {', '.join(uncovered)} "
                            f"(uncovered_allowed {pol['uncovered_allowed']})")
    out.rows.append(("Requirements", "BLOCKED" if out.blockers else "PASS"))
    return out


def invariants_hold(j: Judging) -> CheckResult:
    """4. No more violated invariants than allowed; verified ones rest on usable evidence."""
    g, out = j.g, CheckResult()
    violated = [i["id"] for i in g.invariants if i["status"] == "violated"]
    if len(violated) > g.policy["invariants"]["violated_allowed"]:
        out.blockers += [f"{inv} violated" for inv in violated]
    for inv in g.invariants:
        if inv["status"] == "verified":
            out.blockers += [f"{inv['id']} cites {t} evidence that is {PHRASE[j.evidence[t][0]]}"
                             for t in inv["evidence"] if not j.usable(t)]
            out.blockers += _plan_gaps(inv, g.plan)
    out.rows.append(("Invariants", "BLOCKED" if out.blockers else "PASS"))
    return out


REQUIRED_BLOCKER = {"MISSING": "{t} evidence is missing (required)", "FAIL": "{t} evidence failed: {why}",
                    "UNKNOWN": "{t} evidence outcome unknown: {why}", "CHANGED": "{t} evidence is unstable: {why}",
                    "OTHER": "{t} evidence does not count: {why}", "STALE": "{t} evidence is stale: {why}"}


def required_evidence(j: Judging) -> CheckResult:
    """5. Every required evidence type present, from the configured command, and passing (optional
    types are reported, not required)."""
    out = CheckResult()
    for t in _types(j, "required"):
        status, why = j.evidence[t]
        if status in REQUIRED_BLOCKER and not (status == "STALE" and j.stale_ok):
            out.blockers.append(REQUIRED_BLOCKER[status].format(t=t, why=why))
        out.rows.append((LABELS[t], status))
    for t in _types(j, "optional"):
        status = j.evidence[t][0]
        out.rows.append((f"{LABELS[t]} (optional)", status))
        if status != "PASS":
            out.notes.append(f"optional {t} evidence is {status.lower()} (reported, not required)")
    return out


def evidence_fresh(j: Judging) -> CheckResult:
    """6. The required evidence was collected on exactly the tree being judged (a stale type is
    named by check 5, in its row)."""
    fresh = all(j.evidence[t][0] == "PASS" for t in _types(j, "required"))
    return CheckResult([("Evidence", f"TREE MATCH {j.g.tree[:12]}" if fresh else "STALE OR MISSING")])


def critical_findings(j: Judging) -> CheckResult:
    """7. No more open critical findings than allowed."""
    return _open_findings(j, "critical", "critical_allowed")


def major_findings(j: Judging) -> CheckResult:
    """8. No more open major findings than allowed."""
    return _open_findings(j, "major", "major_allowed")


def regression_debt(j: Judging) -> CheckResult:
    """9. Confirmed findings have a regression test."""
    debt = [f["id"] for f in j.g.findings if f["status"] == "CONFIRMED" and not f.get("regression_test")]
    blockers = [] if len(debt) <= j.g.policy["regression"]["confirmed_finding_without_test"] else [
        f"Confirmed finding {fid} has no regression test" for fid in debt]
    return CheckResult([("Regression Debt", str(len(debt)))], blockers)


def regression_verified(j: Judging) -> CheckResult:
    """10. Every regression test verified, and its passing run still fresh."""
    out = CheckResult()
    for f in j.g.findings:
        if f["status"] in ("FIXING", "FIXED"):
            out.blockers.append(f"Finding {f['id']} regression test not verified yet")
        elif f["status"] == "VERIFIED" and f.get("regression_fresh") is False:
            out.blockers.append(f"Finding {f['id']} regression evidence is stale")
    return out


# The seed's ten checks, in its order: PASS is the absence of blockers across all of them.
CHECKS: tuple[tuple[str, Callable[[Judging], CheckResult]], ...] = (
    ("files_valid", files_valid), ("state_allows", state_allows),
    ("requirements_verified", requirements_verified), ("invariants_hold", invariants_hold),
    ("required_evidence", required_evidence), ("evidence_fresh", evidence_fresh),
    ("critical_findings", critical_findings), ("major_findings", major_findings),
    ("regression_debt", regression_debt), ("regression_verified", regression_verified),
)


def evaluate(g: GateInput) -> GateReport:
    statuses = {t: evidence_status(g.evidence.get(t), g.tree, g.pending.get(t, []), g.configured.get(t))
                for t in LABELS}
    judging = Judging(g, statuses, stale_ok=not g.policy["evidence"]["must_match_head"])
    report = GateReport(programs={t: ran_program(rec) for t, rec in sorted(g.evidence.items())})
    for _name, check in CHECKS:
        result = check(judging)
        report.rows += result.rows
        report.notes += result.notes
        for blocker in result.blockers:
            report.block(blocker)
    return report


def _types(j: Judging, level: str) -> list[str]:
    return [t for t, v in j.g.policy["verification"].items() if v == level]


def _open_findings(j: Judging, severity: str, allowance: str) -> CheckResult:
    """Findings not closed count against the ceiling; so does a rejection its reviewer's
    reproducer has not refuted on this tree."""
    g = j.g
    unrefuted = {f["id"] for f in g.findings if f["status"] == "REJECTED" and not refuted_on(f, g.tree)}
    ids = [f["id"] for f in g.findings if f["severity"] == severity
           and (f["status"] not in CLOSED_FINDING or f["id"] in unrefuted)]
    blockers = [] if len(ids) <= g.policy["findings"][allowance] else [
        f"{severity.capitalize()} finding {fid} is open" + (
            f" (rejected, but its reproducer has not passed on this source tree: "
            f"harness finding reproduce {fid})" if fid in unrefuted else "") for fid in ids]
    return CheckResult([(f"{severity.capitalize()} Findings", str(len(ids)))], blockers)


def _plan_gaps(item: Mapping[str, Any], plan: dict[str, list[str]]) -> list[str]:
    """A verified item must cite every evidence type its contract planned."""
    missing = [t for t in plan.get(item["id"], []) if t not in item["evidence"]]
    if not missing:
        return []
    return [f"{item['id']}: the contract plans verification by {', '.join(missing)}; "
            f"it cites {', '.join(item['evidence']) or 'nothing'}"]


def ran_program(record: dict) -> str:
    """What a record says ran, by its resolved path: `python3` names whichever comes first on PATH."""
    program = record.get("program")
    if not program:
        return "program not recorded" if record.get("outcome") != "not_found" else "program not found"
    real = record.get("program_real")
    return program + (f" → {real}" if real else "")


def render_text(r: GateReport) -> str:
    lines = [f"QUALITY GATE: {r.verdict}", ""]
    width = max((len(c) for c, _ in r.rows), default=10) + 2
    lines += [f"{c:<{width}}{v}" for c, v in r.rows]
    if r.blockers:
        lines += ["", "Blocking:"] + [f"- {b}" for b in r.blockers]
    if r.notes:
        lines += ["", "Notes:"] + [f"- {n}" for n in r.notes]
    if r.programs:
        lines += ["", "Programs run:"] + [f"- {t}: {p}" for t, p in r.programs.items()]
    return "\n".join(lines)
