"""`harness status`'s text and JSON reporters: the lines of harness.cli.status_text, through click."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what `harness status` calls
from harness.cli.reporters import text_report
from harness.cli.status_text import Line, no_task_lines, status_lines
from harness.task.status import NoOpenTask, StatusView


def _echo(lines: list[Line]) -> None:
    for err, text in lines:
        click.echo(text, err=err)


@text_report.register
def status_text(v: StatusView) -> None:
    _echo(status_lines(v))


@text_report.register
def no_task_text(n: NoOpenTask) -> None:
    _echo(no_task_lines(n))
