"""`harness evidence TYPE [-- COMMAND ...]`."""

from __future__ import annotations

import click

from harness.cli.common import EVIDENCE_TYPE, SECONDS, store, task_option, with_return_code


@click.command(context_settings={"ignore_unknown_options": False})
@click.argument("etype", metavar="TYPE", type=EVIDENCE_TYPE)
@click.argument("argv", nargs=-1, metavar="[-- COMMAND ...]")
@click.option("--junit", metavar="PATH", help="JUnit XML report the command writes; its counts are recorded.")
@click.option("--timeout", type=SECONDS, metavar="SECONDS",
              help="Kill the command's whole process group after this long (recorded as a timeout).")
@click.option("--shell", is_flag=True,
              help="Run the COMMAND given after -- through /bin/sh (only when a pipeline is really wanted). A type's "
                   "command from config.yaml runs as config.yaml says: with no COMMAND, --shell is refused unless its "
                   "evidence.TYPE.shell is true.")
@task_option
@with_return_code
def evidence(etype: str, argv: tuple[str, ...], junit: str | None, timeout: float | None, shell: bool,
             task_id: str | None) -> int:
    """Run a real command and record it as TYPE evidence for the task.

    \b
    harness evidence unit_test -- python -m pytest -q
    harness evidence build                 (the command from .harness/config.yaml)
    harness evidence lint --shell -- "ruff check . | tee lint.txt"
    harness evidence custom.perf           (a named custom type: its own command in config.yaml)
    harness evidence pass_to_pass          (built in: the test command with the base's tests put back)

    The output streams live; the exit status is the command's own (127 not found,
    124 timeout, 130 interrupted), and 1 when it exited 0 but its --junit report is
    missing, empty or records failures (the run is recorded as failed). The record
    binds the exit code to the source tree (the code, excluding .harness/) as it was
    when the command started; secrets are redacted before anything is written.

    pass_to_pass takes no command: it runs gate.yaml's suite.test_type command on this
    source with the task's base's protected files put back, and exits 1 naming every
    case that passed at the base and does not pass now.
    """
    from harness.cli.evidence_report import report
    from harness.evidence.recording import record_evidence

    result = record_evidence(store(), task_id, etype, argv, junit, timeout, shell)
    report(result, as_json=False)
    return result.exit_code
