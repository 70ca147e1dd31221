"""`harness metrics`' text reporter (its JSON: ``Metrics.as_dict()``)."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what `harness metrics` calls
from harness.cli.reporters import text_report
from harness.history.metrics import Metrics

LABELS = {
    "false_done": "false done (DONE later contradicted)",
    "finding_confirmation": "finding confirmation (confirmed / proposed)",
    "regression_capture": "regression capture (with test / confirmed)",
    "gate_bypass": "gate bypass (DONE without PASS at that commit)",
    "convergence": "convergence (DONE / DONE + ESCALATED)",
}


@text_report.register
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
