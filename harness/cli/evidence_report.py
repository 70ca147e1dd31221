"""`harness evidence`'s reporter: its lines (harness.cli.evidence_text) on stderr; stdout carries the
command's own output."""

from __future__ import annotations

import click

from harness.cli.evidence_text import evidence_lines
from harness.cli.reporters import report as report  # what `harness evidence` calls
from harness.cli.reporters import text_report
from harness.evidence.recording import EvidenceRecorded


@text_report.register
def evidence_text(e: EvidenceRecorded) -> None:
    for line in evidence_lines(e):
        click.echo(line, err=True)
