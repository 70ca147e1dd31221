"""`harness approve`'s reporters (registered in :mod:`harness.cli.reporters`)."""

from __future__ import annotations

import click

from harness.usecases.approvals import Approved, Pending


def pending_text(p: Pending) -> None:
    if not p.changes:
        click.echo(f"{p.rel} does not loosen what is committed: no approval needed")
        return
    click.echo(f"{p.rel} {p.what}:")
    for change in p.changes:
        click.echo(f"  - {change}")


def approved_text(a: Approved) -> None:
    what = ".harness/approvals.jsonl" if a.rel == ".harness/approvals.jsonl" else f"{a.rel} and .harness/approvals.jsonl together"
    click.echo(f"approved by {a.who}, signed as {a.signer}; commit {what}")
