"""`harness status`'s text and JSON reporters: the lines of harness.cli.status_text, through click."""

from __future__ import annotations

import click

from harness.cli.common import emit_json
from harness.cli.reporters import json_report, text_report
from harness.cli.reporters import report as report  # what `harness status` calls
from harness.cli.status_text import Line, no_task_doc, no_task_lines, status_doc, status_lines
from harness.usecases.status import NoOpenTask, StatusView


def _echo(lines: list[Line]) -> None:
    for err, text in lines:
        click.echo(text, err=err)


@text_report.register
def status_text(v: StatusView) -> None:
    _echo(status_lines(v))


@json_report.register
def status_json(v: StatusView) -> None:
    emit_json(status_doc(v))


@text_report.register
def no_task_text(n: NoOpenTask) -> None:
    _echo(no_task_lines(n))


@json_report.register
def no_task_json(n: NoOpenTask) -> None:
    emit_json(no_task_doc(n))
