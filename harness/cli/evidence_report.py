"""`harness evidence`'s reporter: one line on stderr (stdout carries the command's own output)."""

from __future__ import annotations

import click

from harness.cli.progress import print_next
from harness.usecases.evidence import EvidenceRecorded


def evidence_text(e: EvidenceRecorded) -> None:
    record = e.record
    note = (f"; the run changed the source tree ({record['tree'][:12]} → {record['tree_after'][:12]}): the evidence "
            "is bound to the tree before the run — if the command writes build output, add it to .gitignore"
            ) if record["tree_after"] else ""
    counts = "" if record["passed"] is None else (
        f" — {record['passed']} passed, {record['failed']} failed, {record['skipped']} skipped, {record['errors']} errors")
    exit_text = "no exit code" if record["exit_code"] is None else f"exit {record['exit_code']}"
    click.echo(f"harness: {e.etype} evidence recorded: {record['outcome']} ({exit_text}) "
               f"on tree {record['tree'][:12]}{counts}{note}", err=True)
    if record["error"]:
        click.echo(f"harness: {record['error']}", err=True)
    print_next(e.steps, err=True)
