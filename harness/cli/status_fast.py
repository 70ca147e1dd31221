"""`harness status` answered before click loads: the command an agent runs at the start of every
session, and the one it runs most.

The same use case (harness.task.status) and the same lines (harness.cli.status_text) as the
click command, written as click.echo writes them (harness.cli.plain_echo). Only the forms the
command is run with are answered here; anything else (--help, an unknown option, an argument that
is not UTF-8) is click's. A refusal (no .harness/, an unknown task, a lock whose wait ran out) is
reported here by the function main() reports it with, and anything else that fails before a line is
printed (an unusable path, a bug) is left to the full path: the two paths never differ in what they
print or how they exit, and a wait for the lock is never waited for and said twice (read 125's F-0446).
"""

from __future__ import annotations


def parse(args: list[str]) -> tuple[str | None, bool] | None:
    """(task id, --json) of `status ARGS`, or None for a form click alone answers."""
    task_id, as_json, rest = None, False, list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--json":
            as_json = True
        elif arg == "--task" and rest and task_id is None:
            task_id = rest.pop(0)
        elif arg.startswith("--task=") and task_id is None:
            task_id = arg[len("--task="):]
        else:
            return None
        if task_id is not None and not _plain_id(task_id):
            return None
    return task_id, as_json


def _plain_id(task_id: str) -> bool:
    """A task id click would take as it is: not empty, not an option, valid UTF-8."""
    try:
        task_id.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(task_id) and not task_id.startswith("-")


def answer(args: list[str]) -> int | None:
    """The exit code of `harness status ARGS` printed here, or None: the full path answers."""
    parsed = parse(args)
    if parsed is None:
        return None
    from harness.cli import plain_echo

    said = plain_echo.report_lock_waits()
    try:
        lines, code = _render(*parsed)
    except Exception as exc:
        from harness.errors import HarnessError

        if not said and not isinstance(exc, HarnessError):
            return None  # an unusable path, a bug: the full path reports it in its own words
        from harness.cli.main import failure_code  # main()'s words, not a second wait said again (F-0446)

        return failure_code(exc, ["status", *args])
    try:
        for err, text in lines:
            plain_echo.echo(text, err=err)
    except BrokenPipeError:
        return plain_echo.reader_gone()
    except OSError as exc:
        from harness.cli.main import report_os_error

        return report_os_error(exc, ["status", *args])
    return code


def _render(task_id: str | None, as_json: bool) -> tuple[list[tuple[bool, str]], int]:
    from harness import context
    from harness.cli import status_text
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore
    from harness.task.status import show_status

    s = TaskStore(open_layout(), context.current())
    s.recover()
    result = show_status(s, task_id)
    if as_json:
        from harness.cli.plain_echo import json_text

        return [(False, json_text(result.as_dict()))], result.exit_code
    return status_text.lines_of(result), result.exit_code
