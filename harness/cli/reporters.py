"""One text and one JSON reporter per result kind (in the manner of check-jsonschema's
``reporter.py``): a command's ``--json`` picks the reporter; the command itself never branches."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from harness.cli.common import emit_json

if TYPE_CHECKING:  # hooks report through here too: no use-case module is imported to pick a reporter
    from harness.usecases.audit import AuditResult
    from harness.usecases.findings import FindingStep, Proposed
    from harness.usecases.listing import FindingList, TaskList
    from harness.usecases.pre_receive import PushChecked
    from harness.usecases.stamp import Stamped


# -- task list -------------------------------------------------------------------------
def tasks_text(tasks: TaskList) -> None:
    if not tasks.rows:
        click.echo('no tasks yet: harness task new "TITLE"')
    for r in tasks.rows:
        click.echo(f"{'*' if r['current'] else ' '} {r['id']}  {r['state']:<12} {r['title']}")


def tasks_json(tasks: TaskList) -> None:
    emit_json(tasks.rows)


# -- finding list ----------------------------------------------------------------------
def findings_text(found: FindingList) -> None:
    for f in found.findings:
        click.echo(f"{f['id']}  {f['status']:<11} [{f['severity']}] {f['content']['title']}")
    m = found.rates
    click.echo(f"confirmation rate {m['confirmation_rate']}, regression capture rate {m['regression_capture_rate']}")


def findings_json(found: FindingList) -> None:
    emit_json({"findings": [{"id": f["id"], "status": f["status"], "severity": f["severity"],
                             "title": f["content"]["title"]} for f in found.findings], "rates": found.rates})


# -- finding steps ---------------------------------------------------------------------
def finding_step_text(st: FindingStep) -> None:
    from harness.cli.progress import print_next

    click.echo(f"{st.id}: {st.status}")
    print_next(st.steps)


def finding_step_json(st: FindingStep) -> None:
    from harness.core.next_step import as_data

    emit_json({"id": st.id, "status": st.status, "next": as_data(st.steps)})


def proposed_text(p: Proposed) -> None:
    from harness.cli.progress import print_next

    for fid, item in p.findings:
        click.echo(f"{fid}: PROPOSED  [{item['severity']}] {item['title']}")
    print_next(p.steps)


def proposed_json(p: Proposed) -> None:
    emit_json([{"id": fid, "status": "PROPOSED", "severity": item["severity"], "title": item["title"]}
               for fid, item in p.findings])  # a list, as before: its steps are each finding's reproduce


# -- audit -----------------------------------------------------------------------------
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
                   "— install what they need and run again", err=True)
    elif not a.failed:
        click.echo(f"harness: {a.title}: {len(a.commits)} commit(s) checked, no problems", err=True)
    if a.rerun_only:
        click.echo(f"harness: {a.title}: re-ran {a.rerun_only[:12]} only (--only): the other DONE commits' re-runs "
                   "are their own jobs' (harness audit --aggregate requires every one)", err=True)


def audit_json(a: AuditResult) -> None:
    emit_json({**({"range": a.scope} if a.scope else {}), "checked": list(a.commits), "commits": len(a.commits),
               "failed": sum(not r["ok"] for r in a.rows), "could_not_run": a.unrunnable, "results": a.rows,
               "history": [p.as_dict() for p in a.history],
               **({"rerun_only": a.rerun_only} if a.rerun_only else {})})


# -- pre-receive: every pushed ref ------------------------------------------------------
def push_text(p: PushChecked) -> None:
    for a in p.audits:
        audit_text(a)
    if p.exit_code == 1:
        click.echo("harness: the push is rejected as a whole; nothing was updated", err=True)


def push_json(p: PushChecked) -> None:
    audit_json(p.combined())


# -- stamp -----------------------------------------------------------------------------
def stamped_text(s: Stamped) -> None:
    note = s.note
    click.echo(f"stamped {note['commit'][:12]} on {note['ref']} (source tree {note['source_tree'][:12]})")
    if note.get("error"):
        click.echo(f"  the note records: {note['error']} (no gate was judged)")
    for tid, t in note["tasks"].items():
        click.echo(f"  {tid}: {t.get('state', '?')} gate {t.get('gate', '-')}"
                   + (f" — blockers: {'; '.join(t['blockers'])}" if t.get("blockers") else ""))


def stamped_json(s: Stamped) -> None:
    emit_json(s.note)


# result kind (its class name) -> (text reporter, JSON reporter)
REPORTERS: dict[str, tuple[Callable[[Any], None], Callable[[Any], None]]] = {
    "TaskList": (tasks_text, tasks_json),
    "FindingList": (findings_text, findings_json),
    "AuditResult": (audit_text, audit_json),
    "FindingStep": (finding_step_text, finding_step_json),
    "Proposed": (proposed_text, proposed_json),
    "Stamped": (stamped_text, stamped_json),
    "PushChecked": (push_text, push_json),
}


# Kinds whose reporters live in their own module (imported only when such a result is reported):
# result kind -> (module, text reporter, JSON reporter; "" where the command has no --json)
REPORTER_MODULES: dict[str, tuple[str, str, str]] = {
    "GateOutcome": ("harness.cli.gate_report", "gate_text", "gate_json"),
    "GateInvalid": ("harness.cli.gate_report", "invalid_text", "invalid_json"),
    "IndexVerdict": ("harness.cli.gate_report", "index_text", "index_json"),
    "IndexInvalid": ("harness.cli.gate_report", "index_invalid_text", "index_invalid_json"),
    "IndexNoTask": ("harness.cli.gate_report", "index_no_task_text", "index_no_task_json"),
    "EvidenceRecorded": ("harness.cli.evidence_report", "evidence_text", ""),
    "Installed": ("harness.cli.install_report", "installed_text", ""),
    "Uninstalled": ("harness.cli.install_report", "uninstalled_text", ""),
    "Pending": ("harness.cli.approve_report", "pending_text", ""),
    "Approved": ("harness.cli.approve_report", "approved_text", ""),
    "Convergence": ("harness.cli.converge", "converge_text", "converge_json"),
    "Metrics": ("harness.cli.metrics", "metrics_text", "metrics_json"),
    "SkillsInstalled": ("harness.cli.skills", "installed_text", "result_json"),
    "SkillsUninstalled": ("harness.cli.skills", "uninstalled_text", "result_json"),
    "StatusView": ("harness.cli.status_report", "status_text", "status_json"),
    "NoOpenTask": ("harness.cli.status_report", "no_task_text", "no_task_json"),
}


def reporters_for(result: object) -> tuple[Callable[[Any], None], Callable[[Any], None]]:
    """The (text, JSON) reporters of ``result``'s kind."""
    kind = type(result).__name__
    if kind in REPORTERS:
        return REPORTERS[kind]
    import importlib

    module, text, as_data = REPORTER_MODULES[kind]
    m = importlib.import_module(module)
    return getattr(m, text), getattr(m, as_data or text)


def report(result: object, as_json: bool) -> None:
    """Hand ``result`` to its text or its JSON reporter."""
    text, as_data = reporters_for(result)
    (as_data if as_json else text)(result)
