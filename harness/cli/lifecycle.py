"""`harness transition`, `harness validate-transition`, `harness replay`."""

from __future__ import annotations

import click

from harness.cli.common import store, task_option, with_return_code
from harness.core import states
from harness.errors import HarnessError, Refused

STATE = click.Choice(states.STATES, case_sensitive=False)


@click.command()
@click.argument("target", type=STATE)
@click.option("--reason", help="Why; ESCALATED needs a code first, e.g. 'SPEC_AMBIGUITY: …'.")
@task_option
def transition(target: str, reason: str | None, task_id: str | None) -> None:
    """Move the task to TARGET. Exit 1 with `INVALID TRANSITION: A → B` and nothing
    written when the rules refuse it.

    \b
    Legal: CREATED→SPECIFYING→PLANNED→IMPLEMENTING→VERIFYING→(IMPLEMENTING|REVIEWING),
    REVIEWING→(REPRODUCING|GATING), REPRODUCING→(REVIEWING|FIXING), FIXING→VERIFYING,
    GATING→(BLOCKED|CONVERGED), BLOCKED→(IMPLEMENTING|REPRODUCING|ESCALATED), CONVERGED→DONE.
    GATING→CONVERGED and CONVERGED→DONE need a gate PASS for the current source tree.
    """
    from harness.cli.progress import echo_next, with_next
    from harness.task.transitions import record_transition, transition_event

    target = target.upper()
    s = store()
    tid = s.current_id(task_id)
    current, event = transition_event(s, tid, target, reason)
    try:
        task = record_transition(s, tid, event)
    except Refused as exc:
        raise with_next(exc, s, tid) from None
    extra = f" (iteration {task.proj.iteration}/{task.proj.max_iterations})" if target == "BLOCKED" else ""
    click.echo(f"{tid}: {states.arrow(current, target)}{extra}")
    echo_next(s, tid)


@click.command("validate-transition")
@click.argument("current", type=STATE)
@click.argument("target", type=STATE)
@with_return_code
def validate_transition(current: str, target: str) -> int:
    """Check CURRENT → TARGET against the transition table: exit 0 legal, 1 not."""
    current, target = current.upper(), target.upper()
    if states.is_legal(current, target):
        click.echo(f"VALID TRANSITION: {states.arrow(current, target)}")
        return 0
    click.echo(states.invalid(current, target).message)
    return 1


@click.command()
@task_option
@click.option("--all", "all_tasks", is_flag=True, help="Check every task, not only the current one.")
@click.option("--write", is_flag=True, help="Re-render the YAML files from the ledger (undoes hand edits of lifecycle fields).")
@with_return_code
def replay(task_id: str | None, all_tasks: bool, write: bool) -> int:
    """Rebuild every lifecycle field from the ledger, check its hash chain, and compare
    with the YAML files. Exit 0 when all agree; exit 2 naming each disagreement.

    With --write, a file that no longer parses gets the ledger's text (and is named); every
    other file keeps its free-form text. What --write cannot fix (an edited evidence file)
    is still reported, with exit 2."""
    from harness.task.transitions import replay_problems as check
    from harness.task.transitions import rewrite_files

    s = store()
    ids = s.task_ids() if all_tasks else [s.current_id(task_id)]
    failures = 0
    for tid in ids:
        task, problems = check(s, tid)
        rewrote = bool(problems and write)
        if rewrote:
            try:
                for lost in rewrite_files(s, tid):
                    click.echo(f"{tid}: {lost} — its free-form text was replaced by the ledger's", err=True)
            except HarnessError as exc:
                problems = [exc.render()]
            else:
                task, problems = check(s, tid)
                left = f"; {len(problems)} problem(s) remain that --write cannot fix:" if problems else "; files agree"
                click.echo(f"{tid}: re-rendered the YAML files from the ledger{left}")
        for line in problems:
            click.echo(line, err=True)
        failures += bool(problems)
        if task is not None and not problems and not rewrote:
            click.echo(f"{tid}: ledger OK ({task.proj.seq} events, hash chain intact); files agree")
    return 2 if failures else 0
