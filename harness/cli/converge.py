"""`harness converge`: continue the fix loop, or stop it (seed §24)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from harness.cli.common import (
    emit_json,
    json_option,
    store,
    task_option,
    with_return_code,
)
from harness.cli.progress import print_next
from harness.core import converge as rules
from harness.core import next_step
from harness.errors import Refused

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore

OPEN_FOR_REPRODUCING = ("PROPOSED", "REPRODUCING", "CONFIRMED")


@click.command()
@task_option
@json_option
@click.option("--apply", "apply_", is_flag=True,
              help="Perform the transition the decision calls for: GATING → CONVERGED on a PASS; GATING → BLOCKED "
                   "or BLOCKED → IMPLEMENTING/REPRODUCING to continue; → ESCALATED with the reason code to stop.")
@with_return_code
def converge(task_id: str | None, as_json: bool, apply_: bool) -> int:
    """Decide whether the fix loop goes on: exit 0 CONVERGED (the gate passes), 1 CONTINUE
    (the gate is blocked, a blocker is there to work on, iterations are left), 3 ESCALATE
    with a reason code (SPEC_AMBIGUITY, ARCHITECTURE_DEFECT, REPEATED_REGRESSION,
    UNSTABLE_TEST, REVIEW_DISAGREEMENT, MAX_ITERATIONS).

    \b
    ESCALATE when: the iterations are spent; a confirmed finding reappears after the same
    defect was closed; an invariant is violated again after it was verified; a command
    passed and failed on the same source tree; or the blockers have not shrunk over
    gate.yaml's convergence.stalled_iterations (default 3).

    In GATING the gate evaluation is recorded, as `harness gate` records it. Without
    --apply nothing else is written.
    """
    from harness.gitio import Git
    from harness.usecases.gate import checked_policy, judge

    s = store()
    tid = s.current_id(task_id)
    git = Git(s.layout.root)
    tree, head = git.worktree_source_tree(), git.head()
    policy = checked_policy(s, git)
    state = s.load(tid, docs=False).proj.state
    judged: dict = {}
    if state == "GATING":  # the decision may move the task to CONVERGED: it needs a recorded verdict
        def precheck(task: LoadedTask) -> list[tuple[str, dict]]:
            judged["report"], judged["gi"] = judge(s, task, policy, tree)
            r = judged["report"]
            return [("gate.evaluated", {"verdict": r.verdict, "tree": tree, "head": head,
                                        "policy": policy.digest, "blockers": r.blockers})]

        s.append(tid, [], precheck=precheck)
    else:
        judged["report"], judged["gi"] = judge(s, s.load(tid), policy, tree)
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
    if as_json:
        emit_json({"task": tid, "state": p.state, **decision.as_dict(), "iteration": p.iteration,
                   "max_iterations": p.max_iterations, "gate": report.verdict, "blockers": blockers,
                   "applied": applied, "next": [n.as_dict() for n in steps]})
    else:
        click.echo(f"CONVERGENCE: {decision.decision}" + (f" ({decision.reason})" if decision.reason else ""))
        click.echo(f"{tid}  {p.state}  iteration {p.iteration}/{p.max_iterations}  gate {report.verdict}")
        click.echo(decision.detail)
        if decision.blocker:
            click.echo(f"Work on: {decision.blocker}")
        for move in applied:
            click.echo(f"{tid}: {move}")
        if apply_ and not applied:
            click.echo(f"(--apply: nothing to do in {p.state}; the loop's transitions start in GATING or BLOCKED)")
        click.echo("")
        print_next(steps)
    return decision.exit_code


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
    from harness.cli.progress import with_next

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
    from harness.cli.progress import steps_for

    if decision.decision == rules.ESCALATE and not applied:
        p = s.load(tid, docs=False).proj
        if p.state in ("GATING", "BLOCKED"):
            return [next_step.NextStep("harness converge --apply",
                                       f"record ESCALATED with {decision.reason}: a human decides how to go on")]
    return steps_for(s, tid)
