"""`harness evidence`'s reporter: one line on stderr (stdout carries the command's own output)."""

from __future__ import annotations

import click

from harness.cli.progress import print_next
from harness.cli.reporters import report as report  # what `harness evidence` calls
from harness.cli.reporters import text_report
from harness.usecases.evidence import EvidenceRecorded


@text_report.register
def evidence_text(e: EvidenceRecorded) -> None:
    record = e.record
    note = (f"; the run changed the source tree ({record['tree'][:12]} → {record['tree_after'][:12]}): the evidence "
            "is bound to the tree before the run — if the command writes build output, add it to .gitignore"
            ) if record["tree_after"] else ""
    counts = "" if record["passed"] is None else (
        f" — {record['passed']} passed, {record['failed']} failed, {record['skipped']} skipped, {record['errors']} errors")
    exit_text = "no exit code" if record["exit_code"] is None else f"exit {record['exit_code']}"
    click.echo(f"harness: {e.etype} evidence recorded: {record['outcome']} ({exit_text}) "
               f"on tree {record['tree'][:12]}{counts}{note}", err=True)
    if record["error"]:
        click.echo(f"harness: {record['error']}", err=True)
    if record.get("pass_to_pass"):
        _pass_to_pass_text(record["pass_to_pass"])
    if record.get("fail_to_pass"):
        f2p = record["fail_to_pass"]
        click.echo(f"harness: FAIL_TO_PASS: the change's tests on the base {(f2p['base'] or 'none')[:12]}'s source "
                   f"({len(f2p['protected_changed'])} protected file(s) from the change); a case a requirement names "
                   "must not pass here", err=True)
        if not f2p.get("cases_passed", 1):
            click.echo("harness: no case passed on the base's source: the tests could not run there (a file they need "
                       "that git ignores?), so no case can show it fails without the change", err=True)
    print_next(e.steps, err=True)


def _pass_to_pass_text(p2p: dict) -> None:
    base = (p2p["base"] or "none")[:12]
    changed = p2p["protected_changed_total"] if "protected_changed_total" in p2p else len(p2p["protected_changed"])
    how = (f"reused {p2p['test_type']} run {p2p['reused_run']} (no protected file differs from the base)"
           if p2p.get("reused_run") else f"{changed} protected file(s) put back as the base has them")
    click.echo(f"harness: PASS_TO_PASS against base {base}: {p2p['base_passed']} case(s) passed there; {how}",
               err=True)
    for lost in p2p["lost"]:
        click.echo(f"  lost: {lost['case']} — {lost['how']}", err=True)
    for case in p2p.get("excused", []):
        click.echo(f"  excused: {case} — a human's signed suite-change approval lets it change", err=True)
    if p2p["lost_total"] > len(p2p["lost"]):
        click.echo(f"  … and {p2p['lost_total'] - len(p2p['lost'])} more (the record's .cases file lists every case)",
                   err=True)
