"""One text and one JSON reporter per result kind (in the manner of check-jsonschema's
``reporter.py``): a command's ``--json`` picks the reporter; the command itself never branches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from harness.cli.common import emit_json
from harness.core import gate as core_gate
from harness.usecases.gate import GateOutcome
from harness.usecases.listing import FindingList, TaskList


# -- gate ------------------------------------------------------------------------------
def gate_text(o: GateOutcome) -> None:
    if o.report is None:
        click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{o.error.render() if o.error else ''}")
        return
    click.echo(core_gate.render_text(o.report))
    if o.advanced_to:
        click.echo(f"\n{o.task}: GATING → {o.advanced_to}")
    if not o.recorded:
        click.echo(f"\n(task is {o.state}: evaluated, not recorded — a finished task's ledger is closed)")


def gate_json(o: GateOutcome) -> None:
    if o.report is None or o.tree is None:
        emit_json({"task": o.task, "verdict": "INVALID_HARNESS_STATE", "error": o.error.render() if o.error else None})
        return
    emit_json({"task": o.task, **o.report.as_dict(o.tree), "recorded": o.recorded, "advanced_to": o.advanced_to})


# -- task list -------------------------------------------------------------------------
def tasks_text(tasks: TaskList) -> None:
    if not tasks.rows:
        click.echo('no tasks yet: harness task new "TITLE"')
    for r in tasks.rows:
        click.echo(f"{'*' if r['current'] else ' '} {r['id']}  {r['state']:<12} {r['title']}")


def tasks_json(tasks: TaskList) -> None:
    emit_json(tasks.rows)


# -- finding list ----------------------------------------------------------------------
def findings_text(found: FindingList) -> None:
    for f in found.findings:
        click.echo(f"{f['id']}  {f['status']:<11} [{f['severity']}] {f['content']['title']}")
    m = found.rates
    click.echo(f"confirmation rate {m['confirmation_rate']}, regression capture rate {m['regression_capture_rate']}")


def findings_json(found: FindingList) -> None:
    emit_json({"findings": [{"id": f["id"], "status": f["status"], "severity": f["severity"],
                             "title": f["content"]["title"]} for f in found.findings], "rates": found.rates})


REPORTERS: dict[type, tuple[Callable[[Any], None], Callable[[Any], None]]] = {
    GateOutcome: (gate_text, gate_json),
    TaskList: (tasks_text, tasks_json),
    FindingList: (findings_text, findings_json),
}


def report(result: object, as_json: bool) -> None:
    """Hand ``result`` to its text or its JSON reporter."""
    text, as_data = REPORTERS[type(result)]
    (as_data if as_json else text)(result)
