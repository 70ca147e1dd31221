"""What to run next: a pure function of the task's situation, for every output an agent reads.

The harness never guesses what the user meant; it reads the same facts the gate reads —
the state, the live gate blockers, the findings' statuses and each evidence type's
freshness — and names the command that moves the task forward, with one line of why.
The first step is the recommended one; the rest are alternatives or the step after.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from harness.core.blockers import (
    CITES_PREFIX,
    CONFIG_UNAPPROVED,
    EVIDENCE_TO_COLLECT,
    INTRODUCED_COMMAND,
    Blocker,
    as_blocker,
    as_blockers,
)
from harness.core.cases import planned as planned_by
from harness.core.finding_binding import PARK, bring_back, set_aside
from harness.core.findings import NEXT_STEP as FINDING_STEP
from harness.core.findings import rejection_problem
from harness.core.gate import DECIDING_STATES, GateInput, evidence_status
from harness.core.value_class import dataclass, field
from harness.errors import GATE_INVALID, GATE_LOOSENED

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    B = TypeVar("B", Blocker, str)  # a blocker, or an old ledger's (or a caller's) bare sentence

OPEN_FINDING = ("PROPOSED", "REPRODUCING", "CONFIRMED", "FIXING", "FIXED", "VERIFIED")
TO_COLLECT = ("STALE", "MISSING", "UNKNOWN", "CHANGED", "OTHER")  # an evidence status a run of its command clears
_NEW_TASK = 'harness task new "TITLE"'


@dataclass(frozen=True)
class NextStep:
    command: str
    why: str

    def as_dict(self) -> dict[str, str]:
        return {"command": self.command, "why": self.why}


def as_data(steps: Iterable[NextStep]) -> list[dict[str, str]]:
    """The same steps as every command's JSON `next` field holds them."""
    return [n.as_dict() for n in steps]


def refusal_hint(step: NextStep) -> str:
    """The next step a refusal adds to its hint (one line, under the reason)."""
    return f"next: {step.command} — {step.why}"


# Not `git checkout HEAD -- .harness/gate.yaml`: where HEAD holds no gate.yaml (the harness adopted and not committed
# yet) the gate compares with init's policy, and the checkout fails (read 116's F-0417).
RESTORE_GATE = "harness init --restore-gate"


def out_of_invalid(kind: str | None) -> list[NextStep]:
    """What clears an INVALID_HARNESS_STATE, by the kind of its cause (harness.errors): for gate.yaml, reverting it or
    fixing it (a loosening: a human's approval instead); else `harness replay`, which shows what in a task's files or
    ledger is invalid and how to restore them (read 114's F-0403: it was named for gate.yaml too, and said "files
    agree")."""
    if kind == GATE_LOOSENED:
        return [NextStep(RESTORE_GATE, "revert the loosening of gate.yaml no human approved (the gate judges under "
                         "the committed policy again: HEAD's, or init's where HEAD holds none)"),
                NextStep("harness approve gate-change", "or a human approves the loosening at a terminal (it shows each "
                         "change and signs it with their SSH key)")]
    if kind == GATE_INVALID:
        return [NextStep(RESTORE_GATE, "gate.yaml is missing, unreadable or does not validate: put back the committed "
                         "policy (HEAD's, or init's where HEAD holds none)"),
                NextStep("edit .harness/gate.yaml", "or fix what the error names (a loosening then needs a human's "
                         "`harness approve gate-change`)")]
    return [NextStep("harness replay", "see what is invalid and how to fix it")]


def after_init(configured: bool) -> list[NextStep]:
    """What `harness init` recommends: the evidence commands first when config.yaml configures none."""
    steps = [] if configured else [NextStep(
        "edit .harness/config.yaml", "set the evidence commands now, before the first commit of .harness/ (a later "
        "change needs a human's `harness approve config-change`); then re-create gate.yaml from them: delete it "
        "and run `harness init` again")]
    return [*steps, NextStep(_NEW_TASK, "start a task")]


@dataclass(frozen=True)
class Detour:
    """The way to the code a finding was proposed against and back, once a reproduce run on other code decided
    nothing (read 114's F-0409: `Next:` named the same undecidable reproduce again)."""

    fid: str
    proposed: str  # the source tree the finding was proposed on: only a run there decides it
    back: str      # the source tree holding the change set aside for it: the one the excursion started from
    aside: bool    # the working tree still holds the change: it is set aside first
    short: str | None = None  # the tree a set-aside reached instead of the proposed one (it is not named again)

    def steps(self, own: list[NextStep], undecided: bool) -> list[NextStep]:
        """``own`` (the finding's steps) on the proposed code, with the change set aside before and brought back;
        ``undecided``: no run there has confirmed or refuted the finding yet."""
        back = NextStep(bring_back(self.back), f"bring your change back (source tree {self.back[:12]}): "
                                               f"{self.fid} was reproduced on the code it was proposed against")
        if self.short:
            # Named again, the set-aside would run without effect again (read 116's F-0416): the change comes back.
            return [NextStep(bring_back(self.back), f"the set-aside left the source at tree {self.short[:12]}, not the "
                             f"proposed tree {self.proposed[:12]}: `git diff --name-status {self.proposed} "
                             f"{self.short}` lists the paths that keep it from there (move them out of the working "
                             f"tree, or ask a human); bring your change back first (source tree {self.back[:12]})")]
        if self.aside:
            return [NextStep(set_aside(self.proposed),
                             f"{self.fid}'s last reproduce ran on other code than it was proposed against, so it "
                             f"decided nothing: put your change aside (it stays in source tree {self.back[:12]}, and "
                             f"what no tree holds, in {PARK}) and make the source the proposed tree "
                             f"{self.proposed[:12]}"),
                    *own, back]
        # Undecided: reproduce here first; decided: the change comes back before any new work is written over it.
        return [*own, back] if undecided else [back, *own]


def detour(f: Mapping[str, Any], tree: str) -> Detour | None:
    """The way there and back for finding ``f`` with the working tree's source at ``tree`` (None: no need). On the
    other code its last attempt ran on: set the change aside. On the proposed code, where an attempt on other code
    came first: bring that back once the reproduce has run (the working tree then holds nothing else to lose).
    Code changed since the attempt is reproduced on first: that run keeps its tree, the one to come back to. A run
    on a tree a set-aside made (``aside``) is never the one to come back to (read 116's F-0415)."""
    site, attempts = f.get("proposed_on"), f.get("attempts") or []
    if not site or not attempts or not tree or f["status"] not in ("REPRODUCING", "CONFIRMED"):
        return None
    started = [a["tree"] for a in attempts if a.get("tree") not in (None, site["tree"]) and not a.get("aside")]
    if tree != site["tree"]:
        last = attempts[-1]
        if f["status"] != "REPRODUCING" or last.get("tree") != tree:
            return None
        if last.get("aside"):  # the set-aside ran and fell short of the proposed code
            return Detour(f["id"], site["tree"], started[-1], False, tree) if started else None
        return Detour(f["id"], site["tree"], tree, True)
    return Detour(f["id"], site["tree"], started[-1], False) if started else None


def finding_steps(fid: str, status: str, collect: Iterable[str] = (), refuted: bool = False,
                  way: Detour | None = None) -> list[NextStep]:
    """What moves one finding on from ``status`` ([] when it is final: then the task's steps follow).
    ``collect``: required types not fresh and passing yet, which `finding verify` needs first;
    ``refuted``: a REPRODUCING finding whose reviewer's reproducer passed (it may be rejected now);
    ``way``: the way to the proposed code and back, after a reproduce run elsewhere (:func:`detour`)."""
    own = _own_steps(fid, status, collect, refuted)
    return way.steps(own, status in ("PROPOSED", "REPRODUCING") and not refuted) if way else own


def _own_steps(fid: str, status: str, collect: Iterable[str], refuted: bool) -> list[NextStep]:
    if status == "REPRODUCING" and refuted:
        return [NextStep(f'harness finding reject {fid} --reason "WHY THE CLAIM DOES NOT HOLD"',
                         f"{fid}'s reproducer ran and did not fail: reject it, saying why")]
    if status == "FIXED":
        return [*(NextStep(f"harness evidence {t}", f"finding verify needs fresh passing {t} evidence on the fixed "
                                                    "code (the full suite)") for t in collect),
                NextStep(f"harness finding verify {fid}", f"{fid} needs its regression test passing and fresh "
                                                          "full-suite evidence")]
    step = FINDING_STEP.get(status)
    return [NextStep(step[0].format(id=fid), step[1].format(id=fid))] if step else []


def work_blockers(state: str, blockers: Iterable[B]) -> list[B]:
    """The blockers there is work for: without the one that only says the task is not in GATING yet."""
    return [b for b in blockers if not _not_gating_yet(state, as_blocker(b))]


def _not_gating_yet(state: str, b: Blocker) -> bool:
    return state not in DECIDING_STATES and b.kind == "state_not_deciding" and b.subject == (state,)


def next_steps(state: str, blockers: Iterable[Blocker | str] = (), findings: Mapping[str, str] | None = None,
               evidence: Mapping[str, str] | None = None, *, iteration: int = 0, max_iterations: int = 5,
               requirements: int = 0, gate_pass: bool = False,
               plan: Mapping[str, list[str]] | None = None, failed_rounds: int = 0,
               stalled_iterations: int = 3, refuted: Iterable[str] = (),
               detours: Mapping[str, Detour] | None = None) -> list[NextStep]:
    """The next command(s) for a task, first = recommended.

    ``blockers``: the live gate blockers (a bare sentence is classified); ``findings``: id -> status;
    ``evidence``: type -> freshness as :func:`harness.core.gate.evidence_status` names it (PASS, FAIL, STALE,
    MISSING, UNKNOWN, CHANGED, OTHER) for the types the gate needs; ``requirements``: how
    many the task has; ``gate_pass``: the last gate verdict is a PASS that still holds;
    ``plan``: REQ/INV id -> the evidence types its contract plans (``verified_by``), so a
    step that cites evidence names real types, not a placeholder; ``failed_rounds``: VERIFYING →
    IMPLEMENTING moves since the task last reached the gate (a loop that reaches
    ``stalled_iterations`` of them is sent to the gate, where iterations are counted);
    ``refuted``: findings in REPRODUCING that may be rejected now (their reproducer passed);
    ``detours``: finding id -> the way to its proposed code and back (:func:`detour`).
    """
    f = dict(findings or {})
    ev = dict(evidence or {})
    work = work_blockers(state, as_blockers(blockers))
    handler = _BY_STATE.get(state)
    facts = _Facts(state, work, f, ev, iteration, max_iterations, requirements, gate_pass, dict(plan or {}),
                   failed_rounds, stalled_iterations, frozenset(refuted), dict(detours or {}))
    return handler(facts) if handler else []


@dataclass(frozen=True)
class _Facts:
    state: str
    blockers: list[Blocker]
    findings: dict[str, str]
    evidence: dict[str, str]
    iteration: int
    max_iterations: int
    requirements: int
    gate_pass: bool
    plan: dict[str, list[str]] = field(default_factory=dict)
    failed_rounds: int = 0
    stalled_iterations: int = 3
    refuted: frozenset[str] = frozenset()
    detours: dict[str, Detour] = field(default_factory=dict)

    def with_status(self, *statuses: str) -> list[str]:
        return sorted(fid for fid, s in self.findings.items() if s in statuses)

    def evidence_to_collect(self) -> list[NextStep]:
        out = []
        for etype, status in sorted(self.evidence.items()):
            if status in TO_COLLECT:
                out.append(NextStep(f"harness evidence {etype}", f"{etype} evidence is {_WORD[status]}: run it on this code"))
        return out

    def failing(self) -> list[str]:
        return sorted(t for t, s in self.evidence.items() if s == "FAIL")

    def in_place(self) -> list[NextStep]:
        """Steps that clear blockers without leaving the state (no code change needed)."""
        return _unique([step for b in self.blockers for step in clearing(b, self.plan, self.evidence, self.findings)])

    def needs_work(self) -> list[Blocker]:
        """Blockers only a change of code (or of findings) clears."""
        return [b for b in self.blockers if not clearing(b, self.plan, self.evidence, self.findings)]


def _cite(kind: str, item: str, plan: Mapping[str, list[str]], evidence: Mapping[str, str],
          why: str) -> list[NextStep]:
    """Mark ``item`` verified, citing the types its contract planned (TYPE when none) — after
    collecting any planned type that has no passing run yet, since citing it is refused until then."""
    types = plan.get(item) or ["TYPE"]
    collect = [NextStep(f"harness evidence {t}", f"{item} is planned to be verified by {t}, which has no passing run "
                        "on this code") for t in types if t != "TYPE" and evidence.get(t, "MISSING") != "PASS"]
    cite = f"harness {kind} set {item} --status verified" + "".join(f" --evidence {t}" for t in types)
    return [*collect, NextStep(cite, why)]


def clearing(blocker: Blocker | str, plan: Mapping[str, list[str]] | None = None,
             evidence: Mapping[str, str] | None = None, findings: Mapping[str, str] | None = None) -> list[NextStep]:
    """The command(s) that clear one gate blocker in place; [] when it takes real work.
    ``findings``: id -> status (a FIXED finding's blockers are cleared by `finding verify`, where it is allowed)."""
    plan, evidence = plan or {}, evidence or {}
    b = as_blocker(blocker)
    if b.kind in _BY_FINDING and (findings or {}).get(b.subject[0]) == "FIXED":
        # read 114's F-0408: verified in place (after the full suite it needs), not sent round the loop
        return finding_steps(b.subject[0], "FIXED", [t for t, s in sorted(evidence.items()) if s in TO_COLLECT])
    if b.kind in (CONFIG_UNAPPROVED, INTRODUCED_COMMAND):
        return _config_clearing(b)
    return _clearing(b, plan, evidence)


# A finding's blockers that name it alone: open, and its regression test not verified yet.
_BY_FINDING = ("finding_open", "regression_unverified")


def _config_clearing(b: Blocker) -> list[NextStep]:
    """Either clears a change of config.yaml no human approved without a change of code: the approval (a human's,
    never the agent's), or the revert, after which the evidence its command ran is collected again (its record is not
    of config.yaml's command then). An introduced command (read 114's F-0407) is cleared the same way; where the chain
    of approvals from the task's base breaks at a commit, reverting the working tree keeps that commit's change: only
    the approval of that step clears it."""
    if b.kind == INTRODUCED_COMMAND and len(b.subject) > 2:
        rev = b.subject[2]
        return [NextStep(f"harness approve config-change --commit {rev}",
                         f"commit {rev} changed {b.subject[1]}'s command in config.yaml with no human's approval: a "
                         "human approves that step at a terminal (it shows each change and signs it with their SSH "
                         "key)")]
    return [NextStep("harness approve config-change", "a human approves the change of config.yaml at a terminal "
                     "(it shows each change and signs it with their SSH key): the commit hook refuses it without"),
            NextStep("git checkout HEAD -- .harness/config.yaml", "or revert the change, then collect the evidence "
                     "again (`harness evidence TYPE`)")]


def _clearing(b: Blocker, plan: Mapping[str, list[str]], evidence: Mapping[str, str]) -> list[NextStep]:
    """:func:`clearing` of every other kind."""
    kind, subject, text = b.kind, b.subject, b.text
    if kind in EVIDENCE_TO_COLLECT:
        return [NextStep(f"harness evidence {subject[0]}", f"{text}: run it on this code")]
    if kind.startswith(CITES_PREFIX) and kind != CITES_PREFIX + "fail":  # a failing run needs a fix, not a re-run
        return [NextStep(f"harness evidence {subject[1]}", text)]
    if kind in ("not_verified", "plan_gap"):
        item = subject[0]
        return _cite("requirement" if item.startswith("REQ") else "invariant", item, plan, evidence,
                     f"{text}: cite the passing evidence that proves it")
    if kind == "uncovered":
        return [step for rid in subject for step in _cite("requirement", rid, plan, evidence, f"{rid} cites no evidence")]
    if kind == "fail_to_pass_unusable":
        # the cases a requirement names, run against the base's source (a failing run, fail_to_pass_failing,
        # needs work, not a re-run)
        return [NextStep("harness evidence fail_to_pass", text.split(": harness evidence", 1)[0])]
    if kind == "finding_unrefuted":
        return [NextStep(f"harness finding reproduce {subject[0]}", text)]
    if kind == "regression_stale":
        # A CLOSED finding too (read 96's F-0328): verify is its way back to a fresh run, and it stays CLOSED.
        return [NextStep(f"harness finding verify {subject[0]}",
                         f"{text}: its regression test and the reproducer that confirmed it run again on this code "
                         "(a CLOSED finding stays CLOSED; if they fail, the fix is undone: fix it again)")]
    return []


_WORD = {"STALE": "stale (the code changed since it ran)", "MISSING": "missing", "UNKNOWN": "of unknown outcome",
         "CHANGED": "unstable (the source changed while it ran)", "OTHER": "not from the configured command",
         "FAIL": "failing"}


def _finding_steps(x: _Facts) -> list[NextStep]:
    """Work on findings in lifecycle order: reproduce, attach a regression test, fix, verify, close
    (each finding's step as :func:`finding_steps` gives it after a finding command)."""
    out = []
    for fid in x.with_status("PROPOSED", "REPRODUCING"):
        # running a refuted one again would pass again: the claim does not hold
        way = x.detours.get(fid)  # after an attempt on other code: there, reproduce, and back (F-0409)
        out += finding_steps(fid, "REPRODUCING", refuted=True, way=way) if fid in x.refuted else \
            finding_steps(fid, "PROPOSED", way=way)
    for status in ("CONFIRMED", "FIXING", "FIXED", "VERIFIED"):
        for fid in x.with_status(status):
            if status == "FIXED":  # verify is refused until the full suite is fresh and passing
                out.extend(x.evidence_to_collect())
            out += finding_steps(fid, status, way=x.detours.get(fid))
    return _unique(out)


def _created(x: _Facts) -> list[NextStep]:
    if x.requirements:
        return [NextStep("harness transition SPECIFYING", "requirements exist: specify the rest of the contract")]
    return [NextStep("harness contract apply",
                     "write the task contract first in .harness/local/contract.yaml (`harness contract template` "
                     "writes an example there): requirements, invariants, verification plan (task-contract skill)"),
            NextStep('harness requirement add "STATEMENT" --priority must', "or add requirements one at a time")]


def _specifying(x: _Facts) -> list[NextStep]:
    if not x.requirements:
        return [NextStep('harness requirement add "STATEMENT" --priority must', "a task without requirements proves nothing")]
    return [NextStep("harness transition PLANNED", "the contract is written: plan the implementation"),
            NextStep('harness invariant add "STATEMENT" --category CATEGORY --severity major', "or add an invariant first")]


def _planned(x: _Facts) -> list[NextStep]:
    return [NextStep("harness transition IMPLEMENTING", "the plan exists: implement it test-first")]


def _implementing(x: _Facts) -> list[NextStep]:
    return [NextStep("harness transition VERIFYING", "once the code and its tests are written: collect evidence")]


def _verifying(x: _Facts) -> list[NextStep]:
    failing = x.failing()
    if failing:
        fix = [NextStep("harness transition IMPLEMENTING", f"{', '.join(failing)} evidence fails: fix the code"),
               *(NextStep(f"harness evidence {t}", f"re-run {t} after the fix") for t in failing)]
        if x.failed_rounds >= x.stalled_iterations:  # fixes are not working: let the gate count the iteration
            return [NextStep("harness transition REVIEWING",
                             f"verification has failed {x.failed_rounds} rounds in a row: take the task to the gate "
                             "(REVIEWING → GATING → harness converge --apply) so the loop is counted"), *fix]
        return fix
    out = x.evidence_to_collect() + x.in_place()
    # "The evidence passes" only when nothing but the review is left: a blocker no command clears in
    # place (a requirement naming no test, a test that passes without the change) is named instead.
    left = [b.text for b in x.needs_work()]
    why = (f"then: hand the change to an adversarial review — the gate would still block: {left[0]}" if left
           else ("then: " if out else "the evidence passes: ") + "hand the change to an adversarial review")
    out.append(NextStep("harness transition REVIEWING", why))
    return _unique(out)


def _reviewing(x: _Facts) -> list[NextStep]:
    if x.with_status(*OPEN_FINDING):
        steps = _finding_steps(x)
        # Only for a finding whose fix has not started: a FIXED one is verified and closed from here.
        if x.with_status("CONFIRMED"):
            steps.append(NextStep("harness transition REPRODUCING", "confirmed findings are worked in REPRODUCING → FIXING"))
        return steps
    if not x.findings:
        return [NextStep("harness review packet --out .harness/local/review.md",
                         "give a fresh reviewer the packet; its findings go to `harness finding propose --file`"),
                NextStep("harness transition GATING", "when the review proposes nothing")]
    return [NextStep("harness transition GATING", "no finding is open"), *x.evidence_to_collect()]


def _reproducing(x: _Facts) -> list[NextStep]:
    steps = [s for s in _finding_steps(x) if not s.command.startswith(("harness finding fixed", "harness finding verify",
                                                                        "harness finding close", "harness evidence"))]
    if x.with_status("FIXING") and not x.with_status("PROPOSED", "REPRODUCING", "CONFIRMED"):
        steps.append(NextStep("harness transition FIXING", "every confirmed finding has a failing regression test: fix"))
    if not x.with_status("PROPOSED", "REPRODUCING", "CONFIRMED", "FIXING"):
        steps.append(NextStep("harness transition REVIEWING", "no finding is left to reproduce"))
    return steps


def _fixing(x: _Facts) -> list[NextStep]:
    steps = _finding_steps(x)
    if not x.with_status("FIXING", "FIXED"):
        steps.append(NextStep("harness transition VERIFYING", "the fixes are verified: re-collect the evidence"))
    return steps


def _gating(x: _Facts) -> list[NextStep]:
    if not x.blockers and x.gate_pass:  # judged, read, and passing on this tree: only the move is left
        return [NextStep("harness gate --advance", "the gate passed on this source tree: PASS moves the task to "
                                                   "CONVERGED")]
    if not x.blockers:  # read the verdict before advancing on it (quality-gate skill)
        return [NextStep("harness gate", "nothing blocks the gate now: judge it and read the report; on PASS (exit 0), "
                                         "`harness gate --advance` moves the task to CONVERGED")]
    # What can be cleared without leaving GATING costs no iteration: do that first.
    if not x.needs_work():
        return _unique(x.in_place() + [NextStep("harness gate", "re-judge once that is done (no --advance: a BLOCKED "
                                                            "verdict would spend an iteration)")])
    return [NextStep("harness converge --apply", f"the gate is blocked ({x.needs_work()[0].text}): "
                                                 "loop back (iteration + 1) or escalate, as the convergence rules decide"),
            NextStep("harness gate", "see every blocker first")]


def _blocked(x: _Facts) -> list[NextStep]:
    if x.iteration >= x.max_iterations:
        return [NextStep('harness transition ESCALATED --reason "MAX_ITERATIONS: …"',
                         f"iteration {x.iteration}/{x.max_iterations}: only escalation is left (LAW 6)")]
    # converge --apply makes the same move a plain transition would, after the checks for a
    # loop that is not converging (a task blocked by `gate --advance` has not had them yet).
    steps = [NextStep("harness converge --apply", "continue the loop or escalate, as the convergence rules decide")]
    if x.with_status("PROPOSED", "REPRODUCING", "CONFIRMED"):
        steps.append(NextStep("harness transition REPRODUCING", "open findings are worked in REPRODUCING"))
    else:
        steps.append(NextStep("harness transition IMPLEMENTING",
                              f"fix what blocked the gate{': ' + x.blockers[0].text if x.blockers else ''}"))
    return steps


def _converged(x: _Facts) -> list[NextStep]:
    if x.gate_pass and not x.blockers:
        return [NextStep("harness transition DONE", "the gate PASS holds for this source tree")]
    # DONE is the only move: what clears a blocker in place comes first (read 114's F-0406: an unapproved change of
    # config.yaml was met with `harness gate` alone, which re-judging never clears).
    return _unique(x.in_place() + x.evidence_to_collect() + [
        NextStep("harness gate", "the PASS no longer holds for this code: re-collect evidence and re-judge before DONE")])


def _done(x: _Facts) -> list[NextStep]:
    return [NextStep(_NEW_TASK, "this task is DONE: start the next one")]


def _escalated(x: _Facts) -> list[NextStep]:
    return [NextStep(_NEW_TASK, "ESCALATED is final: a human resolves the reason, then a new task continues")]


def _unique(steps: list[NextStep]) -> list[NextStep]:
    seen: set[str] = set()
    return [s for s in steps if not (s.command in seen or seen.add(s.command))]  # type: ignore[func-returns-value]


_BY_STATE = {
    "CREATED": _created, "SPECIFYING": _specifying, "PLANNED": _planned, "IMPLEMENTING": _implementing,
    "VERIFYING": _verifying, "REVIEWING": _reviewing, "REPRODUCING": _reproducing, "FIXING": _fixing,
    "GATING": _gating, "BLOCKED": _blocked, "CONVERGED": _converged, "DONE": _done, "ESCALATED": _escalated,
}
NO_TASK = [NextStep(_NEW_TASK, "no open task: every piece of work starts as a task")]
REPLAY_WRITE = NextStep("harness replay --write", "the task files disagree with the ledger (a hand edit): restore "
                                                  "them, then make the change with the command `harness replay` names")


def _freshness(g: GateInput, etype: str) -> str:
    """The gate's status of one type, except that a failure on an older tree is STALE: the
    code changed since, so the next step is to run it again, not to go back and fix."""
    record = g.evidence.get(etype)
    status = evidence_status(record, g.tree, g.pending.get(etype, []), g.configured.get(etype),
                             g.configured_digests.get(etype))[0]
    return "STALE" if status == "FAIL" and record and record.get("tree") != g.tree else status


def for_gate_input(g: GateInput, blockers: Iterable[Blocker | str], *, iteration: int, max_iterations: int,
                   gate_pass: bool, failed_rounds: int = 0, stalled_iterations: int = 3) -> list[NextStep]:
    """:func:`next_steps` from what the gate judged: the evidence types it needs (required by
    gate.yaml or cited by a verified item), the findings, and its blockers."""
    required = {t for t, v in g.policy["verification"].items() if v == "required"}
    cited = {t for item in [*g.requirements, *g.invariants] if item["status"] == "verified" for t in item["evidence"]}
    plan = {item: planned_by(entries)[0] for item, entries in g.plan.items()}  # evidence types, not test cases
    planned = {t for item in [*g.requirements, *g.invariants] if item["status"] != "verified"
               for t in plan.get(item["id"], [])}  # to be cited next: collected first
    evidence = {t: _freshness(g, t) for t in sorted(required | cited | planned)}
    refuted = [f["id"] for f in g.findings if f["status"] == "REPRODUCING" and rejection_problem(f) is None]
    detours = {f["id"]: way for f in g.findings if (way := detour(f, g.tree))}
    return next_steps(g.state, blockers, {f["id"]: f["status"] for f in g.findings}, evidence,
                      iteration=iteration, max_iterations=max_iterations, requirements=len(g.requirements),
                      gate_pass=gate_pass, plan=plan, failed_rounds=failed_rounds,
                      stalled_iterations=stalled_iterations, refuted=refuted, detours=detours)
