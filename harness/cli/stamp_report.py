"""`harness stamp`'s reporter (its JSON: the note, ``Stamped.as_dict()``)."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what a command reporting a stamp calls
from harness.cli.reporters import text_report
from harness.history.stamp_commit import Stamped


@text_report.register
def stamped_text(s: Stamped) -> None:
    note = s.note
    click.echo(f"stamped {note['commit'][:12]} on {note['ref']} (source tree {note['source_tree'][:12]})")
    if note.get("error"):
        click.echo(f"  the note records: {note['error']} (no gate was judged)")
    for tid, t in note["tasks"].items():
        click.echo(f"  {tid}: {t.get('state', '?')} gate {t.get('gate', '-')}"
                   + (f" — blockers: {'; '.join(t['blockers'])}" if t.get("blockers") else ""))
