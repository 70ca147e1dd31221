"""The gate's text and JSON reporters (the index's verdicts print their own ``as_dict()`` as JSON)."""

from __future__ import annotations

import click

from harness.cli.progress import print_next
from harness.cli.reporters import report as report  # what a command reporting a gate calls
from harness.cli.reporters import text_report
from harness.core.gate import GateReport
from harness.gate.evaluate import GateInvalid, GateOutcome
from harness.gate.index import IndexInvalid, IndexNoTask, IndexVerdict


@text_report.register
def gate_text(g: GateOutcome) -> None:
    click.echo(gate_report_text(g.report))
    if g.moved:
        click.echo(f"\n{g.task}: GATING → {g.moved}")
    if not g.recorded:
        click.echo(f"\n(task is {g.state}: evaluated, not recorded — a finished task's ledger is closed)")
    click.echo("")
    print_next(g.steps)




@text_report.register
def invalid_text(g: GateInvalid) -> None:
    click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{g.error}\n")
    print_next(g.steps)




# -- `harness hook gate`: the tree in the index ------------------------------------------
@text_report.register
def index_text(v: IndexVerdict) -> None:
    click.echo(f"harness-gate: {v.task} judged on the tree in the index, source tree {v.tree[:12]} — exactly what "
               "is being committed (unstaged changes are not part of it). Nothing recorded; "
               "`harness gate` records.\n")
    click.echo(gate_report_text(v.gate))


@text_report.register
def index_invalid_text(v: IndexInvalid) -> None:
    click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{v.error}")


@text_report.register
def index_no_task_text(v: IndexNoTask) -> None:
    click.echo(f"harness-gate: {v.message} — nothing was judged, so there is no PASS (exit 1)\n  next: {v.hint}")


def gate_report_text(r: GateReport) -> str:
    """The gate's verdict as the text `harness gate` prints: checks, blockers, notes, programs run."""
    lines = [f"QUALITY GATE: {r.verdict}", ""]
    width = max((len(c) for c, _ in r.rows), default=10) + 2
    lines += [f"{c:<{width}}{v}" for c, v in r.rows]
    if r.blockers:
        lines += ["", "Blocking:"] + [f"- {b.text}" for b in r.blockers]
    if r.notes:
        lines += ["", "Notes:"] + [f"- {n}" for n in r.notes]
    if r.programs:
        lines += ["", "Programs run:"] + [f"- {t}: {p}" for t, p in r.programs.items()]
    return "\n".join(lines)
