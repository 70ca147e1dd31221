"""`harness evidence TYPE [--task ID] -- COMMAND ...` answered before click loads: after a one-line
edit, an agent records evidence more often than it runs anything else of the harness, and importing
click (and the command tree) is cost no recording needs.

The same use case (harness.evidence.recording.record_evidence) and the same lines
(harness.cli.evidence_text) as the click command, written as click.echo writes them
(harness.cli.plain_echo). Only that form is answered here: any other (--help, --junit, --timeout,
--shell, options after the type, no `--`, an argument that is not UTF-8, pass_to_pass) is click's.
A failure is reported by the function main() reports it with (:func:`harness.cli.main.failure_code`):
unlike `status`, a run that has begun cannot be handed back, so the words are shared, not retried.
"""

from __future__ import annotations

_OWN_COMMAND = ("pass_to_pass", "fail_to_pass")  # they take no command: click's path refuses the form
# The collector's threshold for young objects while a recording is answered here (the interpreter's is 700):
# loading the modules a recording needs makes some twenty thousand objects, nearly all of them kept, and
# collecting them twenty times over, to find next to nothing, cost about a twentieth of the recording. The
# collector still runs (every 50,000 new objects), so a long run's output reading frees its cycles as before.
# Given back unless the process ends with the answer (harness.cli.quick_exit): put back, the next allocation
# scans every young object the recording made (~5 ms), for a process that has nothing left to free.
GC_YOUNG = 50_000


def parse(args: list[str]) -> tuple[str, str | None, tuple[str, ...]] | None:
    """(type, task id, command) of `evidence ARGS`, or None for a form click alone answers."""
    from harness.core.evidence_types import is_evidence_type

    if not args or not _plain(args):
        return None
    etype, rest, task_id = args[0], args[1:], None
    if etype.startswith("-") or not is_evidence_type(etype) or etype in _OWN_COMMAND:
        return None
    if rest[:1] == ["--task"] and len(rest) > 1:
        task_id, rest = rest[1], rest[2:]
    elif rest[:1] and rest[0].startswith("--task="):
        task_id, rest = rest[0][len("--task="):], rest[1:]
    if task_id is not None and (not task_id or task_id.startswith("-")):
        return None  # what click makes of it is click's to say
    if rest[:1] != ["--"] or len(rest) < 2:
        return None
    return etype, task_id, tuple(rest[1:])


def _plain(args: list[str]) -> bool:
    """Every argument valid UTF-8 (main() refuses the others in its own words)."""
    try:
        for arg in args:
            arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def answer(args: list[str]) -> int | None:
    """The exit code of `harness evidence ARGS` run and reported here, or None: the click command answers."""
    parsed = parse(args)
    if parsed is None:
        return None
    import gc

    from harness.cli import plain_echo

    plain_echo.report_lock_waits()
    threshold = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, *threshold[1:])  # see GC_YOUNG
    try:
        return _record(*parsed)
    except BaseException as exc:  # reported as main() reports it, or raised again as there
        from harness.cli.main import failure_code

        if isinstance(exc, (KeyboardInterrupt, EOFError)):
            # click ends the line it may have left open, then aborts: the same words, an interrupt
            plain_echo.echo("", err=True)
            return failure_code(KeyboardInterrupt(), ["evidence", *args])
        return failure_code(exc, ["evidence", *args])
    finally:
        from harness.cli.quick_exit import ends_with_the_answer

        if not ends_with_the_answer():
            gc.set_threshold(*threshold)


def _record(etype: str, task_id: str | None, command: tuple[str, ...]) -> int:
    from harness import context
    from harness.cli.evidence_text import evidence_lines
    from harness.cli.plain_echo import echo
    from harness.evidence.recording import record_evidence
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore

    s = TaskStore(open_layout(), context.current())  # as harness.cli.common.store() opens it
    s.recover()
    result = record_evidence(s, task_id, etype, command, None, None, False)
    for line in evidence_lines(result):
        echo(line, err=True)
    return result.exit_code
