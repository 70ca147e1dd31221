"""`harness approve`'s reporters."""

from __future__ import annotations

import click

from harness import paths
from harness.approvals.approve import Approved, Pending
from harness.cli.reporters import report as report  # what `harness approve` calls
from harness.cli.reporters import text_report


@text_report.register
def pending_text(p: Pending) -> None:
    if not p.changes:
        where = f"the change made to {p.rel} on top of {p.against[:12]}" if p.against else p.rel
        click.echo(f"{where} does not loosen what is committed: no approval needed")
        return
    click.echo(f"{p.rel} {p.what}:")
    for change in p.lines:  # what the approver reads: redacted with the committed rules only (read 154's F-0545)
        click.echo(f"  - {change}")


@text_report.register
def approved_text(a: Approved) -> None:
    what = paths.APPROVALS if a.rel == paths.APPROVALS or a.against else f"{a.rel} and .harness/approvals.jsonl together"
    against = f", one approval against each parent it changes ({', '.join(c[:12] for c in a.parents)})" if a.parents else ""
    click.echo(f"approved by {a.who}, signed as {a.signer}{against}; commit {what}")
