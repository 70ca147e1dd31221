"""`harness finding …`: reviewer findings that become bugs only through runs the harness made."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli.common import SECONDS, json_option, store, task_option, with_return_code


def _report(result: object) -> None:
    from harness.cli.finding_report import report

    report(result, as_json=False)


@click.group()
def finding() -> None:
    """Findings (F-0001…): PROPOSED → REPRODUCING → CONFIRMED | REJECTED;
    CONFIRMED → FIXING → FIXED → VERIFIED → CLOSED. No step without its fact."""


@finding.command("propose")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help="YAML: one finding, a list, or {findings: [...]} (see `harness review packet`).")
@task_option
def propose(path: Path, task_id: str | None) -> None:
    """Record a reviewer's findings as PROPOSED, whatever status the file claims, with the code they are
    about: the source tree and HEAD, and the sha256 of each file in the repository a reproducer's command
    names (its script). A reproducer whose command holds a secret-shaped value is refused: the ledger
    would keep it redacted, and a redacted command matches any value."""
    from harness.findings.steps import proposals_in
    from harness.findings.steps import propose as record

    s = store()
    items = proposals_in(path, s)
    _report(record(s, task_id, items))


@finding.command("reproduce", context_settings={"ignore_unknown_options": True})
@click.argument("fid", metavar="F-ID")
@click.argument("argv", nargs=-1, metavar="[-- COMMAND ...]")
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Seconds before the run is killed.")
@task_option
@with_return_code
def reproduce(fid: str, argv: tuple[str, ...], timeout: float | None, task_id: str | None) -> int:
    """Run the reproducer (default: the finding's recommended command). A failing run
    makes the finding CONFIRMED; a passing run is recorded as an attempt. Only a run on the
    code the finding was proposed against, with the files its command names as proposed,
    decides it: any other run is recorded as an attempt that neither confirms nor refutes."""
    from harness.findings.steps import reproduce as run

    _report(run(store(), task_id, fid, argv, timeout))
    return 0


@finding.command("reject")
@click.argument("fid", metavar="F-ID")
@click.option("--reason", required=True, help="Why the claim does not hold.")
@task_option
def reject(fid: str, reason: str, task_id: str | None) -> None:
    """Reject a finding — only after a run of the reviewer's reproducer that did not fail, on
    the code it was proposed against with its files as proposed. A minor finding its reviewer
    gave no reproducer rests on the reason alone."""
    from harness.findings.steps import step

    _report(step(store(), task_id, fid, "finding.rejected", {"reason": reason}))


@finding.command("regression", context_settings={"ignore_unknown_options": True})
@click.argument("fid", metavar="F-ID")
@click.argument("path")
@click.argument("argv", nargs=-1, metavar="[-- COMMAND ...]")
@click.option("--tests", "tests", metavar="CASE_ID", multiple=True,
              help="The suite's test case this regression test is (repeatable; pytest's node id or the JUnit "
                   "report's classname::name). Found in COMMAND when it names node ids. With a protected suite "
                   "(gate.yaml suite:), the gate needs it passing in the full run and failing without the fix.")
@click.option("--failing-at", "failing_at", metavar="COMMIT",
              help="Show it failing on COMMIT (one HEAD descends from, before the fix) with PATH as it is now, "
                   "in a throw-away checkout, instead of on the working tree. Needed to replace the test of a "
                   "finding whose fix is in (FIXED, VERIFIED, CLOSED): the new test must then also pass now.")
@task_option
def regression(fid: str, path: str, argv: tuple[str, ...], tests: tuple[str, ...], failing_at: str | None,
               task_id: str | None) -> None:
    """Attach the regression test PATH: it must exist and must FAIL now (the reproducer kept), or on
    --failing-at's commit. COMMAND runs it (default: the command that confirmed the finding). Then
    FIXING. Given again later, it replaces the test (moved, renamed, rewritten); the status stays.

    \b
    Examples:
      harness finding regression F-0001 tests/test_calc.py -- pytest tests/test_calc.py::test_negative
      harness finding regression F-0001 tests/test_calc.py --failing-at HEAD~1 -- pytest tests/test_calc.py
    """
    from harness.findings.steps import attach_regression

    _report(attach_regression(store(), task_id, fid, path, argv, tests, failing_at))


@finding.command("fixed")
@click.argument("fid", metavar="F-ID")
@task_option
def fixed(fid: str, task_id: str | None) -> None:
    """Mark the fix as written (FIXING → FIXED); `verify` proves it."""
    from harness.findings.steps import step

    s = store()
    _report(step(s, task_id, fid, "finding.fixed", {"commit": s.git.head()}))


@finding.command("verify")
@click.argument("fid", metavar="F-ID")
@task_option
@with_return_code
def verify(fid: str, task_id: str | None) -> int:
    """Re-run the regression test (must pass) and require fresh passing evidence for every
    required type in gate.yaml (the full suite) → VERIFIED."""
    from harness.findings.steps import verify as prove

    _report(prove(store(), task_id, fid))
    return 0


@finding.command("close")
@click.argument("fid", metavar="F-ID")
@task_option
def close(fid: str, task_id: str | None) -> None:
    """Close a VERIFIED finding."""
    from harness.findings.steps import step

    _report(step(store(), task_id, fid, "finding.closed"))


@finding.command("reopen")
@click.argument("fid", metavar="F-ID")
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Seconds before the run is killed.")
@task_option
def reopen(fid: str, timeout: float | None, task_id: str | None) -> None:
    """Run a FIXED, VERIFIED or CLOSED finding's reviewer's reproducer, unchanged, on the code now.
    A failing run reopens it (→ CONFIRMED: its regression test and fix are cleared, a new test that
    fails now and a fix take it on again); a passing run is refused and nothing is recorded."""
    from harness.findings.steps import reopen as run

    _report(run(store(), task_id, fid, timeout))


@finding.command("list")
@task_option
@json_option
def list_(task_id: str | None, as_json: bool) -> None:
    """Findings of the task with their status, and the confirmation / regression capture rates."""
    from harness.cli.finding_report import report
    from harness.task.listing import list_findings

    report(list_findings(store(), task_id), as_json)
