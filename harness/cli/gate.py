"""`harness gate`: the deterministic quality gate, recorded in the ledger."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from harness.cli.common import emit_json, json_option, store, task_option, with_return_code
from harness.cli.progress import print_next
from harness.core import gate as core_gate
from harness.core import next_step, states
from harness.errors import EXIT_INVALID, HarnessError, Refused
from harness.store.reader import LoadedTask
from harness.store.settings import GatePolicy
from harness.store.tasks import TaskStore

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio import Git


@click.command()
@task_option
@json_option
@click.option("--advance", is_flag=True,
              help="In GATING: PASS → CONVERGED, BLOCKED → BLOCKED (spends an iteration). Run without it first.")
@with_return_code
def gate(task_id: str | None, as_json: bool, advance: bool) -> int:
    """Evaluate the quality gate for the working tree: exit 0 PASS, 1 BLOCKED,
    2 INVALID_HARNESS_STATE. Every evaluation is recorded as a `gate.evaluated` event.

    A requirement counts only when it cites evidence that passed on exactly the current
    source tree; required evidence types in gate.yaml must be fresh and passing.

    Run it without --advance first: a BLOCKED verdict is then only a report, and stale
    evidence or an unverified requirement can be fixed in place. The report ends with the
    next step.
    """

    report: core_gate.GateReport | None = None
    gi: core_gate.GateInput | None = None
    tid = task_id
    try:
        s = store()
        tid = s.current_id(task_id)
        git = s.git
        tree, head = git.worktree_source_tree(), git.head()
        policy = _policy(s, git)
        state = s.load(tid, docs=False).proj.state
        if state in states.TERMINAL:  # a finished task's ledger is closed: evaluate, record nothing
            report, gi = _judge(s, s.load(tid), policy, tree)
        else:
            def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:  # under the lock, as it is now
                nonlocal report, gi
                judged, gi = _judge(s, task, policy, tree)
                report = judged
                return [("gate.evaluated", {"verdict": judged.verdict, "tree": tree, "head": head,
                                            "policy": policy.digest, "blockers": judged.blockers})]

            s.append(tid, [], precheck=precheck)
    except HarnessError as exc:
        repair = [next_step.NextStep("harness replay", "see what is invalid and how to fix it")]
        if as_json:
            emit_json({"task": tid, "verdict": "INVALID_HARNESS_STATE", "error": exc.render(),
                       "next": [n.as_dict() for n in repair]})
        else:
            click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{exc.render()}\n")
            print_next(repair)
        return EXIT_INVALID
    assert report is not None and gi is not None  # both paths above judged, or raised
    recorded = state not in states.TERMINAL
    moved = _advance(s, tid, report.verdict, tree, policy.digest, head) if advance else None
    steps = _next(s, tid, gi, report, moved)
    if as_json:
        emit_json({"task": tid, **report.as_dict(tree), "recorded": recorded, "advanced_to": moved,
                   "next": [n.as_dict() for n in steps]})
    else:
        click.echo(core_gate.render_text(report))
        if moved:
            click.echo(f"\n{tid}: GATING → {moved}")
        if not recorded:
            click.echo(f"\n(task is {state}: evaluated, not recorded — a finished task's ledger is closed)")
        click.echo("")
        print_next(steps)
    return 0 if report.verdict == "PASS" else 1


def _next(s: TaskStore, tid: str, gi: core_gate.GateInput, report: core_gate.GateReport, moved: str | None) -> list[next_step.NextStep]:
    """The next step after this evaluation (and after the move --advance made)."""
    import dataclasses

    from harness.cli.progress import loop_counts

    task = s.load(tid, docs=False)
    p = task.proj
    g = dataclasses.replace(gi, state=p.state)
    passed = report.verdict == "PASS"
    return next_step.for_gate_input(g, report.blockers, iteration=p.iteration, max_iterations=p.max_iterations,
                                    gate_pass=passed and p.last_gate is not None and p.last_gate.get("tree") == gi.tree,
                                    **loop_counts(task.lines, gi.policy))


def _policy(s: TaskStore, git: Git) -> GatePolicy:
    """gate.yaml as it stands — refused while it loosens the committed policy without approval."""
    from harness.gitio import TreeSource
    from harness.guard.validate import APPROVALS, GATE, configured_types, unapproved_loosening
    from harness.store import settings

    policy = settings.load_gate(s.layout)
    head = git.head()
    committed = TreeSource(git, git.commit_tree(head), "HEAD").read(GATE) if head else None
    approvals = (s.layout.root / APPROVALS).read_bytes() if (s.layout.root / APPROVALS).exists() else None
    from harness.guard import trust

    trust.use_git_config(git)
    trusted = [TreeSource(git, git.commit_tree(head), "HEAD")] if head else []
    loosened, why = unapproved_loosening(committed, policy, approvals, trusted,
                                         configured_types(s.source))
    if loosened:
        raise HarnessError(".harness/gate.yaml loosens the committed policy without approval: " + "; ".join(loosened)
                           + (f" ({why})" if why else ""),
                           hint="revert it, or have a human run `harness approve gate-change` at a terminal")
    return policy


def _judge(s: TaskStore, task: LoadedTask, policy: GatePolicy, tree: str) -> tuple[core_gate.GateReport, core_gate.GateInput]:
    from harness.store import facts

    edited = s.disagreements(task)
    if edited:  # the files say something the ledger does not: judge nothing
        raise HarnessError("the task files disagree with the ledger (hand-edited?):\n  "
                           + "\n  ".join(d.render() for d in edited),
                           hint="`harness replay` shows it; `harness replay --write` restores the files from the ledger")
    gi = facts.gate_input(s.source, task, policy, tree)
    return core_gate.evaluate(gi), gi


def _advance(s: TaskStore, tid: str, verdict: str, tree: str, policy: str, head: str | None) -> str | None:
    target = "CONVERGED" if verdict == "PASS" else "BLOCKED"

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        if task.proj.state != "GATING":  # what --advance means, not a rule of the task: replay judges the move
            raise Refused(f"--advance moves a task only from GATING; {tid} is {task.proj.state}")
        return [("task.transitioned", {"from": "GATING", "to": target, "reason": f"gate {verdict}",
                                       "tree": tree, "policy": policy, "head": head})]

    s.append(tid, [], precheck=precheck)
    return target
