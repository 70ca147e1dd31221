"""The task ledger: an append-only, hash-chained list of events, and its replay.

Events are facts; every lifecycle field in the YAML files is a projection of them.
Each line is canonical JSON ``{"seq", "ts", "type", "data", "prev"}`` where ``prev`` is
the sha-256 of the previous line's bytes (64 zeros for the first). Replay applies each
event through the same rules the CLI enforces, so a ledger that was written by hand
into an illegal history is caught here, not trusted.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from harness.core import findings as finding_rules
from harness.core import states

GENESIS = "0" * 64
REQUIREMENT_STATUSES = ("pending", "implemented", "verified", "blocked")
INVARIANT_STATUSES = ("pending", "verified", "violated")
PRIORITIES = ("must", "should", "could")
SEVERITIES = ("critical", "major", "minor")
# Events after which the last gate judgement no longer describes the task.
GATE_INPUT_EVENTS = frozenset({
    "requirement.added", "requirement.set", "invariant.added", "invariant.set",
    "evidence.prepared", "evidence.collected", "contract.applied",
    "finding.proposed", "finding.reproduced", "finding.rejected", "finding.regression",
    "finding.fixed", "finding.verified", "finding.closed",
})


def canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def line_hash(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def encode_event(seq: int, ts: str, etype: str, data: dict, prev: str) -> str:
    return canonical({"seq": seq, "ts": ts, "type": etype, "data": data, "prev": prev})


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
    requirements: dict[str, dict] = field(default_factory=dict)
    invariants: dict[str, dict] = field(default_factory=dict)
    evidence: dict[str, dict] = field(default_factory=dict)      # type -> last collected
    pending_runs: dict[str, dict] = field(default_factory=dict)  # run_id -> prepared, never collected
    findings: dict[str, dict] = field(default_factory=dict)
    contract: dict | None = None
    last_gate: dict | None = None
    gate_current: bool = False  # nothing feeding the gate changed since last_gate
    seq: int = 0
    last_hash: str = GENESIS

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


class LedgerProblem(Exception):
    """An event that breaks the chain or the rules; carries the user-facing text."""


def parse_lines(raw: bytes, name: str) -> list[tuple[str, dict]]:
    """Split and decode a ledger file, checking the hash chain and sequence numbers."""
    if raw and not raw.endswith(b"\n"):
        raise LedgerProblem(f"{name}: last line is incomplete (no trailing newline)")
    out: list[tuple[str, dict]] = []
    prev = GENESIS
    for number, bline in enumerate(raw.splitlines(), start=1):
        try:
            line = bline.decode("utf-8")
            event = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LedgerProblem(f"{name}:{number}: not a JSON event ({exc})") from None
        if not isinstance(event, dict) or set(event) != {"seq", "ts", "type", "data", "prev"}:
            raise LedgerProblem(f"{name}:{number}: an event has exactly seq, ts, type, data, prev")
        if event["prev"] != prev:
            raise LedgerProblem(
                f"{name}:{number}: broken hash chain — line {number} says the previous line hashes to "
                f"{str(event['prev'])[:12]}…, it hashes to {prev[:12]}… (line {number - 1} was rewritten)"
            )
        if event["seq"] != number:
            raise LedgerProblem(f"{name}:{number}: seq is {event['seq']!r}, expected {number}")
        if canonical(event) != line:
            raise LedgerProblem(f"{name}:{number}: not in canonical form (the CLI writes every line)")
        out.append((line, event))
        prev = line_hash(line)
    return out


def replay(events: list[dict], name: str = "events.jsonl") -> Projection:
    proj = Projection()
    for event in events:
        try:
            apply(proj, event)
        except LedgerProblem as exc:
            raise LedgerProblem(f"{name}:{event.get('seq')}: {exc}") from None
    if events and not proj.id:
        raise LedgerProblem(f"{name}: the first event must be task.created")
    return proj


def apply(proj: Projection, event: dict) -> None:
    """Apply one event to ``proj`` or raise LedgerProblem naming the broken rule."""
    etype, data = event["type"], event["data"]
    if not isinstance(data, dict):
        raise LedgerProblem("event data must be an object")
    if etype != "task.created" and not proj.id:
        raise LedgerProblem("the first event must be task.created")
    if proj.state in states.TERMINAL:
        raise LedgerProblem(f"task is {proj.state}; a finished task's record is closed")
    handler = _HANDLERS.get(etype)
    if handler is None:
        raise LedgerProblem(f"unknown event type {etype!r}")
    try:
        handler(proj, data)
    except (KeyError, TypeError, ValueError) as exc:
        raise LedgerProblem(f"{etype}: malformed data ({exc!r})") from None
    if etype in GATE_INPUT_EVENTS:
        proj.gate_current = False
    proj.seq = event["seq"]
    proj.created_at = proj.created_at or event["ts"]
    proj.updated_at = event["ts"]
    if data.get("head"):
        proj.head = data["head"]


def _created(proj: Projection, d: dict) -> None:
    if proj.id:
        raise LedgerProblem("task.created may appear only once")
    proj.id, proj.title, proj.description = d["id"], d["title"], d.get("description", "")
    proj.max_iterations = int(d["max_iterations"])
    proj.base_commit = d.get("base_commit")
    proj.head = d.get("base_commit")
    proj.state = "CREATED"


def _transitioned(proj: Projection, d: dict) -> None:
    if d["from"] != proj.state:
        raise LedgerProblem(f"transition from {d['from']} but the task is {proj.state}")
    ok, detail = proj.gate_pass_for(d.get("tree"), d.get("policy"))
    ctx = states.TransitionContext(proj.iteration, proj.max_iterations, d.get("reason"), ok, detail)
    verdict = states.check_transition(proj.state, d["to"], ctx)
    if isinstance(verdict, states.Refusal):
        raise LedgerProblem(verdict.message)
    proj.state, proj.iteration = d["to"], verdict.iteration


def _item_added(kind: str, table: str):
    def handler(proj: Projection, d: dict) -> None:
        items = getattr(proj, table)
        if d["id"] in items:
            raise LedgerProblem(f"{kind} {d['id']} already exists")
        for key, allowed in _ENUMS[kind].items():
            if d.get(key) not in allowed:
                raise LedgerProblem(f"{kind} {d['id']}: {key} {d.get(key)!r} not one of {list(allowed)}")
        items[d["id"]] = {**d, "status": "pending", "evidence": []}
    return handler


def _item_set(kind: str, table: str, statuses: tuple[str, ...]):
    def handler(proj: Projection, d: dict) -> None:
        items = getattr(proj, table)
        if d["id"] not in items:
            raise LedgerProblem(f"{kind} {d['id']} does not exist")
        if d["status"] not in statuses:
            raise LedgerProblem(f"{kind} {d['id']}: status {d['status']!r} not one of {list(statuses)}")
        evidence = list(d.get("evidence") or [])
        if d["status"] == "verified" and not evidence:
            raise LedgerProblem(f"{kind} {d['id']}: verified needs at least one evidence reference")
        items[d["id"]].update(status=d["status"], evidence=evidence)
    return handler


def _prepared(proj: Projection, d: dict) -> None:
    if d["run_id"] in proj.pending_runs:
        raise LedgerProblem(f"evidence run {d['run_id']} prepared twice")
    proj.pending_runs[d["run_id"]] = {**d, "order": proj.seq}


def _collected(proj: Projection, d: dict) -> None:
    run = proj.pending_runs.pop(d["run_id"], None)
    if run is None:
        raise LedgerProblem(f"evidence run {d['run_id']} was never prepared (or was already recorded)")
    if run["type"] != d["type"]:
        raise LedgerProblem(f"evidence run {d['run_id']} was prepared as {run['type']}, recorded as {d['type']}")
    # A run that never reported but started before this one is superseded by this fact;
    # one that started later is still the latest attempt, and stays "outcome unknown".
    for rid, other in list(proj.pending_runs.items()):
        if other["type"] == d["type"] and other["order"] < run["order"]:
            del proj.pending_runs[rid]
    proj.evidence[d["type"]] = dict(d)


def _gate(proj: Projection, d: dict) -> None:
    if d["verdict"] not in ("PASS", "BLOCKED"):
        raise LedgerProblem(f"gate verdict {d['verdict']!r}")
    proj.last_gate = dict(d)
    proj.gate_current = True


def _contract(proj: Projection, d: dict) -> None:
    if proj.contract is not None:
        raise LedgerProblem("a contract was already applied to this task")
    proj.contract = dict(d)


def _finding_proposed(proj: Projection, d: dict) -> None:
    if d["id"] in proj.findings:
        raise LedgerProblem(f"finding {d['id']} already exists")
    content = dict(d["content"])
    if content.get("severity") not in SEVERITIES:
        raise LedgerProblem(f"finding {d['id']}: severity {content.get('severity')!r}")
    missing = finding_rules.missing_reproducer(content)
    if missing:
        raise LedgerProblem(f"finding {d['id']}: {missing}")
    proj.findings[d["id"]] = {
        "id": d["id"], "content": content, "severity": content["severity"], "status": "PROPOSED",
        "attempts": [], "reproduction": None, "regression_test": None, "regression_run": None,
        "fix_commit": None, "full_suite": None, "rejected_reason": None,
    }


def _finding(proj: Projection, fid: str) -> dict:
    if fid not in proj.findings:
        raise LedgerProblem(f"finding {fid} does not exist")
    return proj.findings[fid]


def _move(f: dict, target: str) -> None:
    problem = finding_rules.refusal(f["status"], target, f["id"])
    if problem:
        raise LedgerProblem(problem)
    f["status"] = target


def _finding_reproduced(proj: Projection, d: dict) -> None:
    f = _finding(proj, d["id"])
    if f["status"] == "PROPOSED":
        _move(f, "REPRODUCING")
    if f["status"] not in ("REPRODUCING", "REJECTED"):
        raise LedgerProblem(f"finding {f['id']} is {f['status']}; reproduction attempts belong to REPRODUCING")
    attempt = {k: d.get(k) for k in ("command", "argv", "exit_code", "outcome", "tree", "output_tail")}
    if d.get("program") is not None:  # which program ran (absent from attempts recorded before it was kept)
        attempt["program"] = d["program"]
    f["attempts"].append(attempt)
    if f["status"] == "REJECTED":
        return  # a re-check of a rejection: the gate reads whether it still holds on its tree
    if d["outcome"] == "failed":  # the reproducer failed: the claimed defect is real
        f["reproduction"] = attempt
        _move(f, "CONFIRMED")


def _finding_rejected(proj: Projection, d: dict) -> None:
    f = _finding(proj, d["id"])
    problem = finding_rules.rejection_problem(f)
    if problem:
        raise LedgerProblem(f"finding {f['id']}: {problem}")
    if not str(d.get("reason") or "").strip():
        raise LedgerProblem(f"finding {f['id']}: rejecting needs a reason")
    _move(f, "REJECTED")
    f["rejected_reason"] = d["reason"]


def _finding_regression(proj: Projection, d: dict) -> None:
    f = _finding(proj, d["id"])
    if d["outcome"] != "failed":
        raise LedgerProblem(f"finding {f['id']}: a regression test must fail when attached (it ran {d['outcome']})")
    _move(f, "FIXING")
    f["regression_test"] = {"path": d["path"], "command": d["command"], "argv": d.get("argv"),
                            "failed_tree": d.get("tree")}


def _finding_fixed(proj: Projection, d: dict) -> None:
    f = _finding(proj, d["id"])
    _move(f, "FIXED")
    f["fix_commit"] = d.get("commit")


def _finding_verified(proj: Projection, d: dict) -> None:
    f = _finding(proj, d["id"])
    if f["status"] != "VERIFIED":  # re-verifying a VERIFIED finding refreshes its regression run
        problem = finding_rules.refusal(f["status"], "VERIFIED", f["id"])
        if problem:
            raise LedgerProblem(problem)
    if d["regression"]["outcome"] != "passed":
        raise LedgerProblem(f"finding {f['id']}: verifying needs the regression test to pass")
    if f["reproduction"] and (d.get("reproducer") or {}).get("outcome") != "passed":
        raise LedgerProblem(f"finding {f['id']}: verifying needs the reproducer that confirmed it to pass now")
    if d["regression"].get("tree") == (f["regression_test"] or {}).get("failed_tree"):
        raise LedgerProblem(f"finding {f['id']}: the regression test passes on the very tree it failed on — "
                            "nothing was fixed (a flaky or environment-dependent test)")
    suite = d["full_suite"]
    if suite.get("tree") != d["regression"].get("tree"):
        raise LedgerProblem(f"finding {f['id']}: full-suite evidence must be fresh for the tree the regression test ran on")
    if not suite.get("types"):
        raise LedgerProblem(f"finding {f['id']}: verifying names no full-suite evidence")
    for etype in suite["types"]:  # the claim must match evidence this same ledger recorded
        rec = proj.evidence.get(etype)
        if rec is None or rec["outcome"] != "passed" or rec["tree"] != suite["tree"]:
            raise LedgerProblem(f"finding {f['id']}: no passing {etype} evidence recorded for tree {str(suite['tree'])[:12]}")
    f["status"] = "VERIFIED"
    f["regression_run"], f["full_suite"] = dict(d["regression"]), dict(d["full_suite"])


def _finding_closed(proj: Projection, d: dict) -> None:
    _move(_finding(proj, d["id"]), "CLOSED")


_ENUMS = {
    "requirement": {"priority": PRIORITIES, "source": ("user", "spec")},
    "invariant": {"severity": SEVERITIES},
}
_HANDLERS = {
    "task.created": _created,
    "task.transitioned": _transitioned,
    "requirement.added": _item_added("requirement", "requirements"),
    "requirement.set": _item_set("requirement", "requirements", REQUIREMENT_STATUSES),
    "invariant.added": _item_added("invariant", "invariants"),
    "invariant.set": _item_set("invariant", "invariants", INVARIANT_STATUSES),
    "evidence.prepared": _prepared,
    "evidence.collected": _collected,
    "gate.evaluated": _gate,
    "contract.applied": _contract,
    "finding.proposed": _finding_proposed,
    "finding.reproduced": _finding_reproduced,
    "finding.rejected": _finding_rejected,
    "finding.regression": _finding_regression,
    "finding.fixed": _finding_fixed,
    "finding.verified": _finding_verified,
    "finding.closed": _finding_closed,
}
