"""`harness status`: the current task's state, requirements, evidence and gate, evaluated live."""

from __future__ import annotations

import click

from harness.cli.common import json_option, store, task_option, with_return_code


@click.command()
@task_option
@json_option
@with_return_code
def status(task_id: str | None, as_json: bool) -> int:
    """Show the task: state, iteration, requirements, invariants, evidence (FRESH or
    STALE, with what changed), findings, and the gate as it would judge right now.

    Start every agent session with this command. It ends with `Next:` lines: the command
    to run next and why. With no open task it lists the finished ones and exits 0.
    Nothing is written. Exit 2 when a harness file is invalid, or gate.yaml loosens the
    committed policy with no human's approval (the view is still printed, with the problem
    named): the gate judges nothing then. --json lists the runs that never recorded their
    outcome under "pending" (their type's freshness is UNKNOWN).
    """
    from harness.cli.status_report import report
    from harness.task.status import show_status

    result = show_status(store(), task_id)
    report(result, as_json)
    return result.exit_code
