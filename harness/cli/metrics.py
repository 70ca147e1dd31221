"""`harness metrics`: the success measures over a range of history."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from harness.cli.common import emit_json

if TYPE_CHECKING:
    from harness.usecases.metrics import Metrics

LABELS = {
    "false_done": "false done (DONE later contradicted)",
    "finding_confirmation": "finding confirmation (confirmed / proposed)",
    "regression_capture": "regression capture (with test / confirmed)",
    "gate_bypass": "gate bypass (DONE without PASS at that commit)",
    "convergence": "convergence (DONE / DONE + ESCALATED)",
}


@click.command()
@click.option("--from", "from_rev", metavar="REV", help="Exclusive start; tasks already finished there are left out. "
              "Omitted: the whole history.")
@click.option("--to", "to_rev", metavar="REV", default="HEAD", show_default=True, help="Inclusive end.")
@click.option("--json", "as_json", is_flag=True, help="Print every rate with its numerator, denominator and ids.")
def metrics(from_rev: str | None, to_rev: str, as_json: bool) -> None:
    """False done, finding confirmation, regression capture, gate bypass and convergence rates,
    computed from every task's ledger and from the commits themselves (a DONE committed with
    --no-verify still counts as a bypass).

    \b
    harness metrics
    harness metrics --from v0.1 --to main --json
    """
    from harness.cli.hooks import _git
    from harness.cli.reporters import report
    from harness.usecases.metrics import measure

    report(measure(_git(), from_rev, to_rev), as_json)


def metrics_text(m: Metrics) -> None:
    click.echo(f"harness metrics over {m.commits} commit(s) and {m.tasks} task(s)"
               + (f" ({m.from_rev}..{m.to_rev})" if m.from_rev else f" (up to {m.to_rev})"))
    for key, label in LABELS.items():
        r = m.rates[key]
        shown = "n/a" if r["rate"] is None else f"{r['rate']:.3f}"
        click.echo(f"  {label:<52} {r['numerator']:>4} / {r['denominator']:<4} {shown}")
        for ident in r["ids"] if key in ("false_done", "gate_bypass") else []:
            click.echo(f"      {ident}")
    if m.unreadable:
        click.echo(f"  not counted (ledger unreadable): {', '.join(m.unreadable)}")
    click.echo(f"  {'agent stop releases at the block limit (this clone)':<52} {m.released['total']:>4}")


def metrics_json(m: Metrics) -> None:
    emit_json({"range": {"from": m.from_rev, "to": m.to_rev, "commits": m.commits}, "tasks": m.tasks,
               "unreadable_tasks": m.unreadable, **m.rates,
               "agent_stop_releases": m.released})
