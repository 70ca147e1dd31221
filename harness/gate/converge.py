"""Continue the fix loop, or stop it: the decision, and with ``apply`` the moves that carry it out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.core import converge as rules
from harness.core import next_step
from harness.core.blockers import Blocker, evaluated_fields
from harness.errors import Refused

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore

OPEN_FOR_REPRODUCING = ("PROPOSED", "REPRODUCING", "CONFIRMED")


@dataclass(frozen=True)
class Convergence:
    task: str
    state: str                 # the task's state when decided
    iteration: int
    max_iterations: int
    gate: str                  # the gate's verdict now
    blockers: list[Blocker]
    decision: rules.Decision
    apply: bool                # --apply was asked for
    applied: list[str] = field(default_factory=list)  # "FROM → TO" moves made
    steps: list[next_step.NextStep] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return self.decision.exit_code

    def as_dict(self) -> dict[str, Any]:
        return {"task": self.task, "state": self.state, **self.decision.as_dict(), "iteration": self.iteration,
                "max_iterations": self.max_iterations, "gate": self.gate, "blockers": [b.text for b in self.blockers],
                "applied": self.applied, "next": next_step.as_data(self.steps)}


def converge(s: TaskStore, task_id: str | None, apply_: bool) -> Convergence:
    from harness.gate.evaluate import checked_policy, judge
    from harness.signatures.trust import Signers

    tid = s.current_id(task_id)
    git = s.git
    signers = Signers(lambda: git)  # whose approvals count: the signers git config names, else the repository's
    tree, head = git.worktree_source_tree(), git.head()
    policy = checked_policy(s, git, signers)
    state = s.load(tid, docs=False).proj.state
    judged: dict[str, Any] = {}
    if state == "GATING":  # the decision may move the task to CONVERGED: it needs a recorded verdict
        def precheck(task: LoadedTask) -> list[tuple[str, dict]]:
            judged["report"], judged["gi"] = judge(s, task, policy, tree, signers)
            r = judged["report"]
            return [("gate.evaluated", {"verdict": r.verdict, "tree": tree, "head": head,
                                        "policy": policy.digest, **evaluated_fields(r.blockers)})]

        s.append(tid, [], precheck=precheck)
    else:
        judged["report"], judged["gi"] = judge(s, s.load(tid), policy, tree, signers)
    report = judged["report"]
    task = s.load(tid, docs=False)
    p = task.proj
    blockers = next_step.work_blockers(p.state, report.blockers)
    facts = rules.LoopFacts(
        p.state, p.iteration, p.max_iterations, report.verdict, blockers,
        [json.loads(line) for line in task.lines],
        policy.doc["convergence"].get("stalled_iterations", rules.DEFAULT_STALLED_ITERATIONS))
    decision = rules.decide(facts)
    applied = _apply(s, tid, decision, tree, policy.digest, head) if apply_ else []
    steps = _steps(s, tid, decision, applied)
    return Convergence(tid, p.state, p.iteration, p.max_iterations, report.verdict, blockers, decision, apply_,
                       applied, steps)


def _moves(state: str, decision: rules.Decision, findings: dict) -> list[tuple[str, str, str]]:
    """(from, to, reason) transitions that carry out ``decision`` from ``state``."""
    d = decision
    if d.decision == rules.CONVERGED:
        return [("GATING", "CONVERGED", "converge: gate PASS")] if state == "GATING" else []
    if d.decision == rules.ESCALATE:
        reason = f"{d.reason}: {d.detail}"
        blocked = [("GATING", "BLOCKED", f"converge: escalating ({d.reason})")] if state == "GATING" else []
        return blocked + [("BLOCKED", "ESCALATED", reason)] if state in ("GATING", "BLOCKED") else []
    if state == "GATING":
        return [("GATING", "BLOCKED", f"converge: gate BLOCKED — {d.blocker}")]
    if state == "BLOCKED":
        to = "REPRODUCING" if any(f["status"] in OPEN_FOR_REPRODUCING for f in findings.values()) else "IMPLEMENTING"
        return [("BLOCKED", to, f"converge: continue — {d.blocker or 'finish the loop'}")]
    return []


def _apply(s: TaskStore, tid: str, decision: rules.Decision, tree: str, policy: str, head: str | None) -> list[str]:
    from harness.gate.steps_now import with_next

    done: list[str] = []

    def precheck(task: LoadedTask) -> list[tuple[str, dict]]:
        moves = _moves(task.proj.state, decision, task.proj.findings)
        done.extend(f"{a} → {b}" for a, b, _ in moves)
        return [("task.transitioned", {"from": a, "to": b, "reason": reason, "tree": tree, "policy": policy,
                                       "head": head}) for a, b, reason in moves]

    p = s.load(tid, docs=False).proj
    if not _moves(p.state, decision, p.findings):
        return []
    try:
        s.append(tid, [], precheck=precheck)
    except Refused as exc:
        raise with_next(exc, s, tid) from None
    return done


def _steps(s: TaskStore, tid: str, decision: rules.Decision, applied: list[str]) -> list[next_step.NextStep]:
    from harness.gate.steps_now import steps_for

    p = s.load(tid, docs=False).proj
    if decision.decision == rules.ESCALATE and not applied and p.state in ("GATING", "BLOCKED"):
        return [next_step.NextStep("harness converge --apply",
                                   f"record ESCALATED with {decision.reason}: a human decides how to go on")]
    if decision.decision == rules.CONVERGED and not applied and p.state == "GATING":  # as the convergence skill says
        return [next_step.NextStep("harness converge --apply", "the gate passes: --apply records GATING → CONVERGED, "
                                                               "then harness transition DONE")]
    return steps_for(s, tid)
