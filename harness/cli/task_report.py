"""`harness task list`'s reporters (a list: the JSON form is the rows themselves)."""

from __future__ import annotations

import click

from harness.cli.common import emit_json
from harness.cli.reporters import json_report, text_report
from harness.cli.reporters import report as report  # what a command reporting a task list calls
from harness.task.listing import TaskList


@text_report.register
def tasks_text(tasks: TaskList) -> None:
    if not tasks.rows:
        click.echo('no tasks yet: harness task new "TITLE"')
    for r in tasks.rows:
        click.echo(f"{'*' if r['current'] else ' '} {r['id']}  {r['state']:<12} {r['title']}")


@json_report.register
def tasks_json(tasks: TaskList) -> None:
    emit_json(tasks.rows)
