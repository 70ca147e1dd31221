"""The gate's ten checks, each a named function of what it judges.

Each returns its rows of the report table, its blockers and its notes; :func:`harness.core.gate.evaluate`
runs them in the order of CHECKS, and PASS is the absence of blockers across all ten.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from harness.core.blockers import CONFIG_UNAPPROVED, INTRODUCED_COMMAND, Blocker, cites_kind, evidence_kind
from harness.core.cases import case_id, fail_to_pass_gaps, not_passed, planned, regression_cases, regression_gaps
from harness.core.evidence_types import BUILTIN
from harness.core.findings import CLOSED as CLOSED_FINDING
from harness.core.findings import refuted_on
from harness.core.gate import DECIDING_STATES, PHRASE, GateInput, label, state_blocker
from harness.core.suite import DEFAULT_TEST_TYPE
from harness.core.value_class import dataclass, field

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any


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
    blockers: list[Blocker] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# A fixed finding is settled only on the tree its regression test last passed on (regression_fresh).
SETTLED_BY_A_RUN = ("VERIFIED", "CLOSED")

# The checks' names, as a blocker's `check` holds them.
REQS, INVS, REGRESSION = "requirements_verified", "invariants_hold", "regression_verified"


def files_valid(j: Judging) -> CheckResult:
    """1. The files are valid (one that is not was refused, exit 2, before the gate was reached), and config.yaml holds
    no change the commit hook would refuse for want of a human's approval: a DONE resting on one could never be
    committed (read 103's F-0361)."""
    unapproved = j.g.config_unapproved
    if not unapproved:
        return CheckResult([("Harness Files", "VALID")])
    return CheckResult([("Harness Files", "UNAPPROVED CHANGE")], [config_unapproved_blocker(unapproved)])


def config_unapproved_blocker(unapproved: Mapping[str, Any]) -> Blocker:
    """The blocker of a config.yaml change the commit hook refuses (GateInput.config_unapproved's shape): the gate's,
    and what refuses a transition to DONE asked of config.yaml as it is now (read 108's F-0379)."""
    why = f" ({unapproved['why']})" if unapproved.get("why") else ""
    text = (f"config.yaml changes {', '.join(unapproved['changes'])} from HEAD's with no human's approval, which the "
            f"commit hook refuses ({', '.join(unapproved['rules'])}){why}: a human runs `harness approve config-change` "
            "at a terminal, or revert the change (`git checkout HEAD -- .harness/config.yaml`) and collect the evidence "
            "again")
    return Blocker("files_valid", CONFIG_UNAPPROVED, ("config.yaml",), text)


def state_allows(j: Judging) -> CheckResult:
    """2. The task is in a state the gate decides."""
    blockers = [] if j.g.state in DECIDING_STATES else [
        Blocker("state_allows", "state_not_deciding", (j.g.state,), state_blocker(j.g.state))]
    return CheckResult([("State", j.g.state)], blockers)


def requirements_verified(j: Judging) -> CheckResult:
    """3. Every must requirement verified by usable evidence its contract planned; few uncovered."""
    g, pol, out = j.g, j.g.policy["requirements"], CheckResult()
    for req in g.requirements:
        if req["priority"] != "must" or not pol["must_verified"]:
            continue
        if req["status"] != "verified":
            out.blockers.append(Blocker(REQS, "not_verified", (req["id"],), f"{req['id']} not verified"))
            continue
        out.blockers += _unusable_citations(j, REQS, req)
        out.blockers += _plan_gaps(REQS, req, g.plan)
        out.blockers += _introduced(j, req)
        out.blockers += _fail_to_pass_gaps(j, req, bool(pol.get("must_have_tests")))
    uncovered = [q["id"] for q in g.requirements if q["priority"] != "could" and not q["evidence"]]
    if len(uncovered) > pol["uncovered_allowed"]:
        out.blockers.append(Blocker(REQS, "uncovered", tuple(uncovered),
                                    f"{len(uncovered)} requirement(s) cite no evidence: {', '.join(uncovered)} "
                                    f"(uncovered_allowed {pol['uncovered_allowed']})"))
    out.rows.append(("Requirements", "BLOCKED" if out.blockers else "PASS"))
    return out


def invariants_hold(j: Judging) -> CheckResult:
    """4. No more violated invariants than allowed; verified ones rest on usable evidence."""
    g, out = j.g, CheckResult()
    violated = [i["id"] for i in g.invariants if i["status"] == "violated"]
    if len(violated) > g.policy["invariants"]["violated_allowed"]:
        out.blockers += [Blocker(INVS, "violated", (inv,), f"{inv} violated") for inv in violated]
    for inv in g.invariants:
        if inv["status"] == "verified":
            out.blockers += _unusable_citations(j, INVS, inv)
            out.blockers += _plan_gaps(INVS, inv, g.plan)
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
            out.blockers.append(Blocker("required_evidence", evidence_kind(status), (t,),
                                        REQUIRED_BLOCKER[status].format(t=t, why=why)))
        out.rows.append((label(t), status))
    cited = {t for item in [*j.g.requirements, *j.g.invariants] if item["status"] == "verified" for t in item["evidence"]}
    for t in sorted({*_types(j, "required"), *cited}):
        if j.evidence[t][0] == "PASS" and t not in j.g.configured:
            # Said, not blocked: a project may choose this, but should know what it chose.
            out.notes.append(f"{t} evidence counts from whatever command ran: config.yaml names none for it, "
                             "so any passing command would do and `harness audit --rerun` cannot re-run it")
    for t in _types(j, "optional"):
        status = j.evidence[t][0]
        out.rows.append((f"{label(t)} (optional)", status))
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
        Blocker("regression_debt", "no_regression_test", (fid,), f"Confirmed finding {fid} has no regression test")
        for fid in debt]
    return CheckResult([("Regression Debt", str(len(debt)))], blockers)


def regression_verified(j: Judging) -> CheckResult:
    """10. Every regression test verified, and its passing run still fresh."""
    out = CheckResult()
    for f in j.g.findings:
        fid = f["id"]
        if f["status"] in ("FIXING", "FIXED"):
            out.blockers.append(Blocker(REGRESSION, "regression_unverified", (fid,),
                                        f"Finding {fid} regression test not verified yet"))
        elif f["status"] in SETTLED_BY_A_RUN and f.get("regression_fresh") is False:
            # CLOSED too (read 96's F-0328): closing settles nothing a later change can undo; `finding verify`
            # runs the test and the confirming reproducer again on this tree, and the finding stays CLOSED.
            out.blockers.append(Blocker(REGRESSION, "regression_stale", (fid,), f"Finding {fid} regression evidence is stale"))
        out.blockers += _regression_gaps(j, f)
    return out


# The ten checks, in the report's order: PASS is the absence of blockers across all of them.
CHECKS: tuple[tuple[str, Callable[[Judging], CheckResult]], ...] = (
    ("files_valid", files_valid), ("state_allows", state_allows),
    ("requirements_verified", requirements_verified), ("invariants_hold", invariants_hold),
    ("required_evidence", required_evidence), ("evidence_fresh", evidence_fresh),
    ("critical_findings", critical_findings), ("major_findings", major_findings),
    ("regression_debt", regression_debt), ("regression_verified", regression_verified),
)


def _types(j: Judging, level: str) -> list[str]:
    return [t for t, v in j.g.policy["verification"].items() if v == level]


def _open_findings(j: Judging, severity: str, allowance: str) -> CheckResult:
    """Findings not closed count against the ceiling; so does a rejection its reviewer's
    reproducer has not refuted on this tree."""
    g = j.g
    unrefuted = unrefuted_ids(g.findings, g.tree)
    ids = open_finding_ids(g.findings, g.tree, severity)
    blockers = [] if len(ids) <= g.policy["findings"][allowance] else [
        Blocker(f"{severity}_findings", "finding_unrefuted" if fid in unrefuted else "finding_open", (fid,),
                f"{severity.capitalize()} finding {fid} is open" + (
                    f" (rejected, but its reproducer has not passed on this source tree: "
                    f"harness finding reproduce {fid})" if fid in unrefuted else "")) for fid in ids]
    return CheckResult([(f"{severity.capitalize()} Findings", str(len(ids)))], blockers)


def unrefuted_ids(findings: Sequence[Mapping[str, Any]], tree: str) -> set[str]:
    """REJECTED findings whose reviewer's reproducer has not passed on ``tree``: open again there."""
    return {f["id"] for f in findings if f["status"] == "REJECTED" and not refuted_on(f, tree)}


def open_finding_ids(findings: Sequence[Mapping[str, Any]], tree: str, severity: str) -> list[str]:
    """The findings of ``severity`` the gate counts as open on ``tree``: not closed, or rejected
    without its reviewer's reproducer passing on that tree."""
    unrefuted = unrefuted_ids(findings, tree)
    return [f["id"] for f in findings if f["severity"] == severity
            and (f["status"] not in CLOSED_FINDING or f["id"] in unrefuted)]


def _fail_to_pass_gaps(j: Judging, req: Mapping[str, Any], needed: bool) -> list[Blocker]:
    """A must requirement is proved by the test cases it names (and its contract planned): each
    passed in a cited run, and none passes on the base's source with the change's tests."""
    rid = req["id"]
    tests = sorted({*map(case_id, req.get("tests") or []), *planned(j.g.plan.get(rid, []))[1]})
    if not tests:
        return [Blocker(REQS, "no_test_named", (rid,),
                        f"{rid} names no test case that proves it (gate.yaml requirements.must_have_tests): "
                        f"harness requirement set {rid} --status verified --evidence TYPE --tests CASE_ID")] if needed else []
    # Only the suite's own test command: a custom type can write any report, naming any id.
    test_type = (j.g.policy.get("suite") or {}).get("test_type", DEFAULT_TEST_TYPE)
    if test_type not in req["evidence"] or test_type not in j.g.cases:
        return [Blocker(REQS, "no_suite_run", (rid,),
                        f"{rid} names test cases, but cites no run of the suite's test command ({test_type}, with its "
                        "junit report) that lists them")]
    return _proved(j, REQS, rid, rid, "the requirement", tests, test_type)


def _proved(j: Judging, check: str, subject: str, label: str, what: str, tests: list[str],
            test_type: str) -> list[Blocker]:
    """FAIL_TO_PASS of ``tests`` against the ``test_type`` run on this tree and fail_to_pass's run."""
    now = j.g.cases.get(test_type, {})
    if not j.usable("fail_to_pass"):
        status = j.evidence["fail_to_pass"][0] if "fail_to_pass" in j.evidence else "MISSING"
        return [Blocker(check, "fail_to_pass_gap", (subject,), not_passed(label, case, now))
                for case in tests if now.get(case) != "passed"] + [
            # a failing run needs a fix, any other (missing, stale, …) a run: told apart by kind, not by words
            Blocker(check, "fail_to_pass_failing" if status == "FAIL" else "fail_to_pass_unusable", (subject,),
                    f"{label} names test cases, but fail_to_pass evidence is {PHRASE[status]}: harness evidence fail_to_pass")]
    return [Blocker(check, "fail_to_pass_gap", (subject,), text)
            for text in fail_to_pass_gaps(label, what, tests, now, j.g.cases.get("fail_to_pass", {}))]


def _regression_gaps(j: Judging, f: Mapping[str, Any]) -> list[Blocker]:
    """With a protected suite, a verified finding's regression test is cases of that suite: present
    and passing in the full run of its test command, and FAIL_TO_PASS like a requirement's."""
    suite = j.g.policy.get("suite")
    if not suite or f["status"] not in ("VERIFIED", "CLOSED") or not f.get("regression_test"):
        return []
    reg, fid = f["regression_test"], f["id"]
    gaps = regression_gaps(fid, reg)
    if gaps:
        return [Blocker(REGRESSION, "regression_gap", (fid,), text) for text in gaps]
    tests = regression_cases(reg)
    test_type = suite.get("test_type", DEFAULT_TEST_TYPE)
    if j.evidence.get(test_type, ("MISSING",))[0] != "PASS" or test_type not in j.g.cases:
        return [Blocker(REGRESSION, "regression_not_in_run", (fid,),
                        f"Finding {fid}: its regression test is not shown passing in a fresh {test_type} run that lists "
                        f"its cases: harness evidence {test_type}")]
    return _proved(j, REGRESSION, fid, f"Finding {fid}", "the fix", tests, test_type)


def _introduced(j: Judging, req: Mapping[str, Any]) -> list[Blocker]:
    """An evidence type whose command is not config.yaml's at the task's base (added or changed by
    this change, or run by hand) proves nothing a human did not approve: `true` is one line away.
    Where the base is not in the repository, whether it changed cannot be told: refused for that."""
    rid, base, step = req["id"], j.g.base_unread, j.g.config_unapproved_at
    # The approval to make is the step the chain from the base breaks at: one a commit made, else the tree's own.
    remedy = (f"approves the change commit {step[:12]} made to it (`harness approve config-change --commit {step[:12]}`)"
              if step else "approves the configuration (`harness approve config-change`)")
    # The step goes in the subject too: `Next:` names its approval from the data, never from the sentence.
    at = (step[:12],) if step else ()
    out = [Blocker(REQS, INTRODUCED_COMMAND, (rid, t, *at),
                   f"{rid} cites {t}, whose command is not the one config.yaml configured at the task's base "
                   f"(added or changed since, or run by hand): it cannot verify a must requirement until a human {remedy}")
           for t in req["evidence"] if t in j.g.introduced]
    if base:
        remedy = ("this clone is shallow: fetch its history (`git fetch --unshallow`)" if base["shallow"] else
                  "the history that held it was rewritten (squashed, rebased) or never pushed: fetch the branch that "
                  "holds it, or start a new task on this code")
        out += [Blocker(REQS, "base_unread", (rid, t),
                        f"{rid} cites {t}, but the task's base commit {str(base['commit'])[:12]} is not in this "
                        f"repository: whether {t}'s command changed since cannot be told, so it cannot verify a must "
                        f"requirement here — {remedy}")
                for t in req["evidence"] if t not in j.g.introduced and t not in BUILTIN]
    return out


def _unusable_citations(j: Judging, check: str, item: Mapping[str, Any]) -> list[Blocker]:
    """A verified item citing a type whose run is not usable on this tree."""
    return [Blocker(check, cites_kind(j.evidence[t][0]), (item["id"], t),
                    f"{item['id']} cites {t} evidence that is {PHRASE[j.evidence[t][0]]}")
            for t in item["evidence"] if not j.usable(t)]


def _plan_gaps(check: str, item: Mapping[str, Any], plan: dict[str, list[str]]) -> list[Blocker]:
    """A verified item must cite every evidence type its contract planned."""
    missing = [t for t in planned(plan.get(item["id"], []))[0] if t not in item["evidence"]]
    if not missing:
        return []
    return [Blocker(check, "plan_gap", (item["id"],),
                    f"{item['id']}: the contract plans verification by {', '.join(missing)}; "
                    f"it cites {', '.join(item['evidence']) or 'nothing'}")]
