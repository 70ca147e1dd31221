"""The gate's text and JSON reporters (registered in :mod:`harness.cli.reporters`)."""

from __future__ import annotations

import click

from harness.cli.common import emit_json
from harness.cli.progress import print_next
from harness.core import gate as core_gate
from harness.core import next_step
from harness.usecases.gate import GateInvalid, GateOutcome
from harness.usecases.gate_index import IndexInvalid, IndexNoTask, IndexVerdict


def gate_text(g: GateOutcome) -> None:
    click.echo(core_gate.render_text(g.report))
    if g.moved:
        click.echo(f"\n{g.task}: GATING → {g.moved}")
    if not g.recorded:
        click.echo(f"\n(task is {g.state}: evaluated, not recorded — a finished task's ledger is closed)")
    click.echo("")
    print_next(g.steps)


def gate_json(g: GateOutcome) -> None:
    emit_json({"task": g.task, **g.report.as_dict(g.tree), "recorded": g.recorded, "advanced_to": g.moved,
               "next": next_step.as_data(g.steps)})


def invalid_text(g: GateInvalid) -> None:
    click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{g.error}\n")
    print_next(g.steps)


def invalid_json(g: GateInvalid) -> None:
    emit_json({"task": g.task, "verdict": "INVALID_HARNESS_STATE", "error": g.error,
               "next": next_step.as_data(g.steps)})


# -- `harness hook gate`: the tree in the index ------------------------------------------
def index_text(v: IndexVerdict) -> None:
    click.echo(f"harness-gate: {v.task} judged on the tree in the index, source tree {v.tree[:12]} — exactly what "
               "is being committed (unstaged changes are not part of it). Nothing recorded; "
               "`harness gate` records.\n")
    click.echo(v.text)


def index_json(v: IndexVerdict) -> None:
    emit_json(v.report)


def index_invalid_text(v: IndexInvalid) -> None:
    click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{v.error}")


def index_invalid_json(v: IndexInvalid) -> None:
    emit_json({"verdict": "INVALID_HARNESS_STATE", "judged": "index", "error": v.error})


def index_no_task_text(v: IndexNoTask) -> None:
    click.echo(f"harness-gate: {v.message} — nothing was judged, so there is no PASS (exit 1)\n  next: {v.hint}")


def index_no_task_json(v: IndexNoTask) -> None:
    emit_json({"verdict": "NO_TASK", "judged": "index", "error": v.message, "next": v.hint})
