"""Replay: the rules that turn a ledger's events into the task's state, or refuse them.

Every rule the CLI enforces is applied here to each event (through :mod:`harness.core.rules`,
:mod:`harness.core.states` and :mod:`harness.core.findings`), so a ledger written by hand
into an illegal history is caught on replay, not trusted — and the CLI gets its refusals
from the same place, by applying the new events before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.core import finding_events, rules, states
from harness.core.chain import Event, LedgerProblem
from harness.core.records import EvidenceFact, Finding, Invariant, Requirement
from harness.core.value_class import dataclass, field

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    Data = dict[str, Any]

# Events after which the last gate judgement no longer describes the task.
GATE_INPUT_EVENTS = frozenset({
    "requirement.added", "requirement.set", "invariant.added", "invariant.set",
    "evidence.prepared", "evidence.collected", "contract.applied",
    "finding.proposed", "finding.reproduced", "finding.rejected", "finding.regression",
    "finding.regression_replaced", "finding.regression_moved", "finding.fixed", "finding.verified", "finding.closed",
    "finding.reopened",
})


@dataclass
class Projection:
    """Everything the ledger says about one task."""

    id: str = ""
    title: str = ""
    description: str = ""
    state: str = ""
    iteration: int = 0
    max_iterations: int = 5
    base_commit: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    head: str | None = None
    requirements: dict[str, Requirement] = field(default_factory=dict)
    invariants: dict[str, Invariant] = field(default_factory=dict)
    evidence: dict[str, EvidenceFact] = field(default_factory=dict)  # type -> last collected
    pending_runs: dict[str, Data] = field(default_factory=dict)      # run_id -> prepared, never collected
    # run_id -> prepared, never collected, but started before a run of its type that was: no longer
    # "outcome unknown" to the gate, still free to report (overlapping runs keep every result).
    superseded_runs: dict[str, Data] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)
    contract: Data | None = None
    last_gate: Data | None = None
    gate_current: bool = False  # nothing feeding the gate changed since last_gate
    reviewed: Data | None = None  # {tree, head} the task entered REVIEWING on, while REVIEWING/REPRODUCING
    seq: int = 0

    def gate_pass_for(self, tree: str | None, policy: str | None) -> tuple[bool, str]:
        """Whether the latest gate judgement is a PASS that still holds for ``tree`` and ``policy``."""
        gate = self.last_gate
        if gate is None:
            return False, "no gate evaluation recorded"
        if gate["verdict"] != "PASS":
            return False, f"the last gate evaluation was {gate['verdict']}"
        if not self.gate_current:
            return False, "requirements, invariants, evidence or findings changed after the last gate PASS"
        if not tree or gate.get("tree") != tree:
            return False, f"the last gate PASS judged tree {str(gate.get('tree'))[:12]}, the source is now {str(tree)[:12]}"
        if not policy or gate.get("policy") != policy:
            return False, "gate.yaml changed after the last gate PASS"
        return True, "gate PASS for the current source tree"


def replay(events: list[Event], name: str = "events.jsonl", onto: Projection | None = None) -> Projection:
    """The projection of ``events``; ``onto``: the projection of the ledger's prefix they follow
    (changed in place), so an appended suffix is judged by the same rules without replaying the prefix."""
    proj = Projection() if onto is None else onto
    for event in events:
        try:
            apply(proj, event)
        except LedgerProblem as exc:
            raise LedgerProblem(f"{name}:{event.get('seq')}: {exc.message}", exc.hint) from None
    if events and not proj.id:
        raise LedgerProblem(f"{name}: the first event must be task.created")
    return proj


def apply(proj: Projection, event: Event) -> None:
    """Apply one event to ``proj`` or raise LedgerProblem naming the broken rule."""
    etype, data = event["type"], event["data"]
    if not isinstance(data, dict):
        raise LedgerProblem("event data must be an object")
    if etype != "task.created" and not proj.id:
        raise LedgerProblem("the first event must be task.created")
    if proj.state in states.TERMINAL:
        if etype == "task.transitioned":
            refusal = states.invalid(proj.state, str(data.get("to")), f"{proj.state} is terminal")
            raise LedgerProblem(refusal.message, refusal.hint)
        raise LedgerProblem(f"task is {proj.state}; a finished task's record is closed")
    handler = _HANDLERS.get(etype)
    if handler is None:
        raise LedgerProblem(f"unknown event type {etype!r}")
    try:
        handler(proj, data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LedgerProblem(f"{etype}: malformed data ({exc!r})") from None
    if etype in GATE_INPUT_EVENTS:
        proj.gate_current = False
    proj.seq = event["seq"]
    proj.created_at = proj.created_at or event["ts"]
    proj.updated_at = event["ts"]
    if data.get("head"):
        proj.head = data["head"]


def _created(proj: Projection, d: Data) -> None:
    if proj.id:
        raise LedgerProblem("task.created may appear only once")
    rules.task_created(d)
    proj.id, proj.title, proj.description = d["id"], d["title"], d.get("description", "")
    proj.max_iterations = d["max_iterations"]
    proj.base_commit = d.get("base_commit")
    proj.head = d.get("base_commit")
    proj.state = "CREATED"


def _transitioned(proj: Projection, d: Data) -> None:
    if d["from"] != proj.state:
        raise LedgerProblem(f"transition from {d['from']} but the task is {proj.state}",
                            "the task changed meanwhile; run the command again")
    ok, detail = proj.gate_pass_for(d.get("tree"), d.get("policy"))
    ctx = states.TransitionContext(proj.iteration, proj.max_iterations, d.get("reason"), ok, detail)
    verdict = states.check_transition(proj.state, d["to"], ctx)
    if isinstance(verdict, states.Refusal):
        raise LedgerProblem(verdict.message, verdict.hint)
    proj.state, proj.iteration = d["to"], verdict.iteration
    # The code under review (F-0343): kept from entering REVIEWING while its findings are proposed and reproduced
    # (a ledger from before it was kept has none).
    if d["to"] == "REVIEWING" and d.get("tree"):
        proj.reviewed = {"tree": d["tree"], "head": d.get("head")}
    elif d["to"] not in ("REVIEWING", "REPRODUCING"):
        proj.reviewed = None


def _item_added(kind: str, table: str) -> Callable[[Projection, Data], None]:
    def handler(proj: Projection, d: Data) -> None:
        items = getattr(proj, table)
        if d["id"] in items:
            raise LedgerProblem(f"{kind} {d['id']} already exists")
        rules.item_added(kind, d)
        planned = {i["id"]: i for i in ((proj.contract or {}).get("contract") or {}).get(table) or []}
        if d["id"] in planned and any(planned[d["id"]].get(k) != v for k, v in d.items()):
            # The gate reads the plan from the contract and the items from these events: both
            # must speak of the same requirement.
            raise LedgerProblem(f"{kind} {d['id']} is not the {kind} the applied contract names {d['id']}",
                                "a contract's items are added as the contract states them (`harness contract apply`)")
        items[d["id"]] = {**d, "status": "pending", "evidence": []}
    return handler


def _item_set(kind: str, table: str) -> Callable[[Projection, Data], None]:
    def handler(proj: Projection, d: Data) -> None:
        items = getattr(proj, table)
        if d["id"] not in items:
            raise LedgerProblem(f"{kind} {d['id']} does not exist in {proj.id}", "known: " + (", ".join(items) or "none"))
        refs = rules.item_set(kind, d["id"], d["status"], d.get("evidence") or [], proj.evidence)
        items[d["id"]].update(status=d["status"], evidence=refs)
        if "tests" in d:  # named once, kept by later sets that name none
            items[d["id"]]["tests"] = rules.test_ids(d["id"], d["tests"])
    return handler


def _prepared(proj: Projection, d: Data) -> None:
    rules.need_evidence_type("evidence type", d["type"])
    if d["run_id"] in proj.pending_runs or d["run_id"] in proj.superseded_runs:
        raise LedgerProblem(f"evidence run {d['run_id']} prepared twice")
    proj.pending_runs[d["run_id"]] = {**d, "order": proj.seq}


def _collected(proj: Projection, d: Data) -> None:
    """A run's result, accepted when its own `evidence.prepared` is in the ledger and it has not
    reported yet, whatever other runs of its type were prepared or recorded meanwhile: overlapping
    runs keep every result, in the order they finished. The type's evidence is the run that
    finished last (its file is the one on disk), so a failure that finishes after a pass is what
    the gate judges, and an earlier failure stays in the ledger."""
    run = proj.pending_runs.pop(d["run_id"], None) or proj.superseded_runs.pop(d["run_id"], None)
    if run is None:
        raise LedgerProblem(f"evidence run {d['run_id']} was never prepared (or was already recorded)")
    if run["type"] != d["type"]:
        raise LedgerProblem(f"evidence run {d['run_id']} was prepared as {run['type']}, recorded as {d['type']}")
    # A run that has not reported but started before this one is superseded by this fact (no
    # longer "outcome unknown"; its result, should it come, is still recorded); one that started
    # later is still the latest attempt, and stays "outcome unknown".
    for rid, other in list(proj.pending_runs.items()):
        if other["type"] == d["type"] and other["order"] < run["order"]:
            proj.superseded_runs[rid] = proj.pending_runs.pop(rid)
    # The fields the schema lets a record leave out are there, as null ("no exit code", "no
    # commit"), for every reader: a schema-valid ledger never makes one fail on a missing key.
    fact = {"exit_code": None, "head": None, **d}
    proj.evidence[d["type"]] = EvidenceFact(**fact)  # type: ignore[typeddict-item]  # extra keys kept as recorded


def _gate(proj: Projection, d: Data) -> None:
    if d["verdict"] not in ("PASS", "BLOCKED"):
        raise LedgerProblem(f"gate verdict {d['verdict']!r}")
    proj.last_gate = dict(d)
    proj.gate_current = True


def _contract(proj: Projection, d: Data) -> None:
    if proj.contract is not None:
        raise LedgerProblem("a contract was already applied to this task")
    if proj.state != "CREATED":
        raise LedgerProblem(f"a contract is applied to a task in CREATED; this one is {proj.state}",
                            "start a new task (`harness task new`) for a new contract")
    if proj.requirements or proj.invariants:
        raise LedgerProblem(f"{proj.id} already has requirements or invariants; a contract starts a task",
                            'harness task new "TITLE", then apply the contract to it')
    from harness.core.contract import gaps, with_ids

    missing = gaps(d["contract"])
    if missing:
        raise LedgerProblem("the contract is incomplete:\n  - " + "\n  - ".join(missing),
                            "`harness contract check --file FILE` lists the same gaps")
    if d["contract"] != with_ids(d["contract"]):
        raise LedgerProblem("the applied contract is not as `harness contract apply` records one: every "
                            "requirement and invariant with its id, assigned in order (REQ-001…, INV-001…)",
                            "apply the contract with `harness contract apply --file FILE`")
    proj.contract = dict(d)


_HANDLERS: dict[str, Callable[[Projection, Data], None]] = {
    "task.created": _created,
    "task.transitioned": _transitioned,
    "requirement.added": _item_added("requirement", "requirements"),
    "requirement.set": _item_set("requirement", "requirements"),
    "invariant.added": _item_added("invariant", "invariants"),
    "invariant.set": _item_set("invariant", "invariants"),
    "evidence.prepared": _prepared,
    "evidence.collected": _collected,
    "gate.evaluated": _gate,
    "contract.applied": _contract,
    **finding_events.HANDLERS,
}
