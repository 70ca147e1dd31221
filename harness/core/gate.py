"""The quality gate (seed §14): a pure function from task facts to a verdict.

No model judges anything here. Every blocker is a sentence naming the item and the rule;
PASS is only the absence of blockers across all ten checks, in the seed's order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    requirements: list[dict]        # id, priority, status, evidence[]
    invariants: list[dict]          # id, severity, status, evidence[]
    evidence: dict[str, dict]       # type -> validated evidence record
    pending: dict[str, list[str]]   # type -> started_at of runs prepared but never recorded
    findings: list[dict]            # id, severity, status, regression_test, regression_fresh
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


def state_blocker(state: str) -> str:
    """The blocker a task outside the deciding states gets: it says only "not in GATING yet"."""
    return f"state {state}: the gate decides only in GATING"


def is_state_blocker(state: str, blocker: str) -> bool:
    return state not in DECIDING_STATES and blocker == state_blocker(state)


def evaluate(g: GateInput) -> GateReport:
    r = GateReport()
    pol = g.policy
    ev_state = {t: evidence_status(g.evidence.get(t), g.tree, g.pending.get(t, []), g.configured.get(t))
                for t in LABELS}
    stale_ok = not pol["evidence"]["must_match_head"]
    r.programs = {t: ran_program(rec) for t, rec in sorted(g.evidence.items())}

    def usable(t: str) -> bool:
        status = ev_state[t][0]
        return status == "PASS" or (stale_ok and status == "STALE" and g.evidence[t]["outcome"] == "passed")

    # 1. files valid: the caller refused (exit 2) before we got here.
    r.rows.append(("Harness Files", "VALID"))
    # 2. state allows the gate
    if g.state not in DECIDING_STATES:
        r.block(state_blocker(g.state))
    r.rows.append(("State", g.state))
    # 3. requirements
    before = len(r.blockers)
    for req in g.requirements:
        if req["priority"] != "must" or not pol["requirements"]["must_verified"]:
            continue
        if req["status"] != "verified":
            r.block(f"{req['id']} not verified")
            continue
        for t in req["evidence"]:
            if not usable(t):
                r.block(f"{req['id']} cites {t} evidence that is {PHRASE[ev_state[t][0]]}")
        _plan_covered(r, req, g.plan)
    uncovered = [q["id"] for q in g.requirements if q["priority"] != "could" and not q["evidence"]]
    if len(uncovered) > pol["requirements"]["uncovered_allowed"]:
        r.block(f"{len(uncovered)} requirement(s) cite no evidence: {', '.join(uncovered)} "
                f"(uncovered_allowed {pol['requirements']['uncovered_allowed']})")
    r.rows.append(("Requirements", "PASS" if len(r.blockers) == before else "BLOCKED"))
    # 4. invariants
    before = len(r.blockers)
    violated = [i["id"] for i in g.invariants if i["status"] == "violated"]
    if len(violated) > pol["invariants"]["violated_allowed"]:
        for inv in violated:
            r.block(f"{inv} violated")
    for inv in g.invariants:
        if inv["status"] == "verified":
            for t in inv["evidence"]:
                if not usable(t):
                    r.block(f"{inv['id']} cites {t} evidence that is {PHRASE[ev_state[t][0]]}")
            _plan_covered(r, inv, g.plan)
    r.rows.append(("Invariants", "PASS" if len(r.blockers) == before else "BLOCKED"))
    # 5 and 6. required verification present, passing, and fresh
    required = [t for t, v in pol["verification"].items() if v == "required"]
    for t in required:
        status, why = ev_state[t]
        if status == "MISSING":
            r.block(f"{t} evidence is missing (required)")
        elif status == "FAIL":
            r.block(f"{t} evidence failed: {why}")
        elif status == "UNKNOWN":
            r.block(f"{t} evidence outcome unknown: {why}")
        elif status == "CHANGED":
            r.block(f"{t} evidence is unstable: {why}")
        elif status == "OTHER":
            r.block(f"{t} evidence does not count: {why}")
        elif status == "STALE" and not stale_ok:
            r.block(f"{t} evidence is stale: {why}")
        r.rows.append((LABELS[t], status))
    for t in (t for t, v in pol["verification"].items() if v == "optional"):
        r.rows.append((f"{LABELS[t]} (optional)", ev_state[t][0]))
        if ev_state[t][0] != "PASS":
            r.notes.append(f"optional {t} evidence is {ev_state[t][0].lower()} (reported, not required)")
    fresh = all(ev_state[t][0] == "PASS" for t in required)
    r.rows.append(("Evidence", f"TREE MATCH {g.tree[:12]}" if fresh else "STALE OR MISSING"))
    # 7 and 8. open findings against the ceilings
    unrefuted = {f["id"] for f in g.findings if f["status"] == "REJECTED" and not refuted_on(f, g.tree)}
    open_f = [f for f in g.findings if f["status"] not in CLOSED_FINDING or f["id"] in unrefuted]
    for sev, key in (("critical", "critical_allowed"), ("major", "major_allowed")):
        ids = [f["id"] for f in open_f if f["severity"] == sev]
        if len(ids) > pol["findings"][key]:
            for fid in ids:
                r.block(f"{sev.capitalize()} finding {fid} is open" + (
                    f" (rejected, but its reproducer has not passed on this source tree: "
                    f"harness finding reproduce {fid})" if fid in unrefuted else ""))
        r.rows.append((f"{sev.capitalize()} Findings", str(len(ids))))
    # 9. confirmed findings need a regression test
    debt = [f["id"] for f in g.findings if f["status"] == "CONFIRMED" and not f.get("regression_test")]
    if len(debt) > pol["regression"]["confirmed_finding_without_test"]:
        for fid in debt:
            r.block(f"Confirmed finding {fid} has no regression test")
    r.rows.append(("Regression Debt", str(len(debt))))
    # 10. regression tests verified, and still fresh
    for f in g.findings:
        if f["status"] in ("FIXING", "FIXED"):
            r.block(f"Finding {f['id']} regression test not verified yet")
        elif f["status"] == "VERIFIED" and f.get("regression_fresh") is False:
            r.block(f"Finding {f['id']} regression evidence is stale")
    return r


def _plan_covered(r: GateReport, item: dict, plan: dict[str, list[str]]) -> None:
    """A verified item must cite every evidence type its contract planned."""
    missing = [t for t in plan.get(item["id"], []) if t not in item["evidence"]]
    if missing:
        r.block(f"{item['id']}: the contract plans verification by {', '.join(missing)}; "
                f"it cites {', '.join(item['evidence']) or 'nothing'}")


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
