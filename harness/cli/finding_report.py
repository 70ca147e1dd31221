"""`harness finding`'s reporters: the list with its rates, one finding's step, the proposed ones."""

from __future__ import annotations

import click

from harness.cli.common import emit_json
from harness.cli.reporters import json_report, text_report
from harness.cli.reporters import report as report  # what a command reporting findings calls
from harness.findings.steps import FindingStep, Proposed
from harness.task.listing import FindingList


# -- finding list (its JSON: FindingList.as_dict) ------------------------------------------
@text_report.register
def findings_text(found: FindingList) -> None:
    for f in found.findings:
        click.echo(f"{f['id']}  {f['status']:<11} [{f['severity']}] {f['content']['title']}")
    m = found.rates
    click.echo(f"confirmation rate {m['confirmation_rate']}, regression capture rate {m['regression_capture_rate']}")


# -- finding steps ---------------------------------------------------------------------
@text_report.register
def finding_step_text(st: FindingStep) -> None:
    from harness.cli.progress import print_next

    click.echo(f"{st.id}: {st.status}")
    if st.attempt_only:
        click.echo(st.attempt_only)
    print_next(st.steps)




@text_report.register
def proposed_text(p: Proposed) -> None:
    from harness.cli.progress import print_next

    for fid, item in p.findings:
        click.echo(f"{fid}: PROPOSED  [{item['severity']}] {item['title']}")
    if p.reviewed:
        click.echo(p.reviewed)
    print_next(p.steps)


@json_report.register
def proposed_json(p: Proposed) -> None:
    emit_json([{"id": fid, "status": "PROPOSED", "severity": item["severity"], "title": item["title"]}
               for fid, item in p.findings])  # a list, as before: its steps are each finding's reproduce
