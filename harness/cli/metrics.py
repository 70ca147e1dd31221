"""`harness metrics`: the seed's §29 success measures over a range of history."""

from __future__ import annotations

import click

from harness.cli.common import emit_json

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
    from harness.agent.stopstate import tally
    from harness.cli.hooks import _git
    from harness.core.metrics import compute
    from harness.guard.metrics_facts import gather

    git = _git()
    commits, tasks, claims, unreadable = gather(git, from_rev, to_rev)
    rates = compute(tasks, claims)
    # The agent stop hook's releases live in this clone only (.harness/local/), not in history.
    released = tally(git.root).get("stop.released", {"total": 0, "by_host": {}})
    if as_json:
        emit_json({"range": {"from": from_rev, "to": to_rev, "commits": len(commits)}, "tasks": len(tasks),
                   "unreadable_tasks": unreadable, **rates, "agent_stop_releases": released})
        return
    click.echo(f"harness metrics over {len(commits)} commit(s) and {len(tasks)} task(s)"
               + (f" ({from_rev}..{to_rev})" if from_rev else f" (up to {to_rev})"))
    for key, label in LABELS.items():
        r = rates[key]
        shown = "n/a" if r["rate"] is None else f"{r['rate']:.3f}"
        click.echo(f"  {label:<52} {r['numerator']:>4} / {r['denominator']:<4} {shown}")
        for ident in r["ids"] if key in ("false_done", "gate_bypass") else []:
            click.echo(f"      {ident}")
    if unreadable:
        click.echo(f"  not counted (ledger unreadable): {', '.join(unreadable)}")
    click.echo(f"  {'agent stop releases at the block limit (this clone)':<52} {released['total']:>4}")
