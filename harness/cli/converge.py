"""`harness converge`: continue the fix loop, or stop it."""

from __future__ import annotations

import click

from harness.cli.common import json_option, store, task_option, with_return_code
from harness.cli.progress import print_next
from harness.cli.reporters import text_report
from harness.gate.converge import Convergence


@click.command()
@task_option
@json_option
@click.option("--apply", "apply_", is_flag=True,
              help="Perform the transition the decision calls for: GATING → CONVERGED on a PASS; GATING → BLOCKED "
                   "or BLOCKED → IMPLEMENTING/REPRODUCING to continue; → ESCALATED with the reason code to stop.")
@with_return_code
def converge(task_id: str | None, as_json: bool, apply_: bool) -> int:
    """Decide whether the fix loop goes on: exit 0 CONVERGED (the gate passes on this source
    tree; a DONE task is finished), 1 CONTINUE (the gate is blocked, a blocker is there to work
    on, iterations are left; a CONVERGED task whose gate no longer passes too), 3 ESCALATE
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
    from harness.cli.reporters import report
    from harness.gate.converge import converge as decide

    result = decide(store(), task_id, apply_)
    report(result, as_json)
    return result.exit_code


@text_report.register
def converge_text(c: Convergence) -> None:
    d = c.decision
    click.echo(f"CONVERGENCE: {d.decision}" + (f" ({d.reason})" if d.reason else ""))
    click.echo(f"{c.task}  {c.state}  iteration {c.iteration}/{c.max_iterations}  gate {c.gate}")
    click.echo(d.detail)
    if d.blocker:
        click.echo(f"Work on: {d.blocker}")
    for move in c.applied:
        click.echo(f"{c.task}: {move}")
    if c.apply and not c.applied:
        click.echo(f"(--apply: nothing to do in {c.state}; the loop's transitions start in GATING or BLOCKED)")
    click.echo("")
    print_next(c.steps)


