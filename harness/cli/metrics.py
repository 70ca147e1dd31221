"""`harness metrics`: the success measures over a range of history."""

from __future__ import annotations

import click


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
    from harness.cli.metrics_report import report
    from harness.history.metrics import measure

    report(measure(_git(), from_rev, to_rev), as_json)
