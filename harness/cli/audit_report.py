"""The audit's reporters: `harness audit`, the push guard and pre-receive (their JSON: the
results' ``as_dict()``)."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what a command reporting an audit calls
from harness.cli.reporters import text_report
from harness.history.audit import AuditResult
from harness.history.pre_receive import PushChecked


@text_report.register
def audit_text(a: AuditResult) -> None:
    from harness.cli.hooks import print_problems

    if a.history:
        print_problems(a.title, a.history)
    for commit, problems in a.problems:
        print_problems(a.title, problems, commit)
    for commit, said, verdict in a.note_disagreements:
        click.echo(f"harness: {a.title}: note on {commit[:12]} says {said}, "
                   f"recomputed {verdict} (the recomputation decides)", err=True)
    if not a.failed and a.unrunnable:
        click.echo(f"harness: {a.title}: {a.unrunnable} re-run(s) could not run on this machine (see above): no verdict "
                   "— fix what each names (a missing tool, poisoning, code imported from the checkout, a submodule) and run "
                   "again", err=True)
    elif not a.failed:
        click.echo(f"harness: {a.title}: {len(a.commits)} commit(s) checked, no problems", err=True)
    if a.rerun_only:
        click.echo(f"harness: {a.title}: re-ran {a.rerun_only[:12]} only (--only): the other DONE commits' re-runs "
                   "are their own jobs' (harness audit --aggregate requires every one)", err=True)


# -- pre-receive: every pushed ref ------------------------------------------------------
@text_report.register
def push_text(p: PushChecked) -> None:
    for a in p.audits:
        audit_text(a)
    if p.exit_code == 1:
        click.echo("harness: the push is rejected as a whole; nothing was updated", err=True)
