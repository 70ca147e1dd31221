"""`harness gate`: the deterministic quality gate, recorded in the ledger."""

from __future__ import annotations

import click

from harness.cli.common import json_option, store, task_option, with_return_code


@click.command()
@task_option
@json_option
@click.option("--advance", is_flag=True,
              help="In GATING: PASS → CONVERGED, BLOCKED → BLOCKED (spends an iteration). Run without it first.")
@with_return_code
def gate(task_id: str | None, as_json: bool, advance: bool) -> int:
    """Evaluate the quality gate for the working tree: exit 0 PASS, 1 BLOCKED,
    2 INVALID_HARNESS_STATE. Every evaluation is recorded as a `gate.evaluated` event.
    With no task to judge (none yet, an unknown --task) it fails as every command does (exit 2).

    A requirement counts only when it cites evidence that passed on exactly the current
    source tree; required evidence types in gate.yaml must be fresh and passing.

    Run it without --advance first: a BLOCKED verdict is then only a report, and stale
    evidence or an unverified requirement can be fixed in place. The report ends with the
    next step.
    """
    from harness.cli.gate_report import report
    from harness.gate.evaluate import run_gate

    result = run_gate(store, task_id, advance)
    report(result, as_json)
    return result.exit_code
