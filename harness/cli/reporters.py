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
    from harness.usecases.gate import GateOutcome
    from harness.usecases.listing import FindingList, TaskList
    from harness.usecases.status import StatusView


# -- gate ------------------------------------------------------------------------------
def gate_text(o: GateOutcome) -> None:
    if o.report is None:
        click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{o.error.render() if o.error else ''}")
        return
    from harness.core.gate import render_text

    click.echo(render_text(o.report))
    if o.advanced_to:
        click.echo(f"\n{o.task}: GATING → {o.advanced_to}")
    if not o.recorded:
        click.echo(f"\n(task is {o.state}: evaluated, not recorded — a finished task's ledger is closed)")


def gate_json(o: GateOutcome) -> None:
    if o.report is None or o.tree is None:
        emit_json({"task": o.task, "verdict": "INVALID_HARNESS_STATE", "error": o.error.render() if o.error else None})
        return
    emit_json({"task": o.task, **o.report.as_dict(o.tree), "recorded": o.recorded, "advanced_to": o.advanced_to})


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


# -- status ----------------------------------------------------------------------------
def status_text(v: StatusView) -> None:
    doc, evidence, live, warnings, pending = v.doc, v.evidence, v.live, v.warnings, v.pending
    req, inv, f = doc["requirements"], doc["invariants"], doc["findings"]
    rows = [
        ("State", doc["state"]),
        ("Iteration", f"{doc['iteration']} / {doc['max_iterations']}"),
        ("Requirements", f"{req['verified']} / {req['total']} verified"
                         + (f" (uncovered: {', '.join(req['uncovered'])})" if req["uncovered"] else "")),
        ("Invariants", f"{inv['verified']} / {inv['total']} verified"
                       + (f" (violated: {', '.join(inv['violated'])})" if inv["violated"] else "")),
    ]
    for i, (etype, e) in enumerate(evidence.items()):
        label = {"passed": "PASS", "failed": "FAIL"}.get(e["outcome"], e["outcome"].upper())
        line = f"{etype} {label} {e['freshness']}"
        if e["changed"]:
            more = e["changed_total"] - len(e["changed"])
            line += " — changed since: " + ", ".join(e["changed"]) + (f" (+{more} more)" if more > 0 else "")
        rows.append(("Evidence" if i == 0 else "", line))
        program = live.get("programs", {}).get(etype)
        if program:
            rows.append(("", f"  ran {program}"))
    if not evidence:
        rows.append(("Evidence", "none collected (harness evidence TYPE)"))
    for run in pending.values():
        rows.append(("", f"{run['type']} UNKNOWN — a run started and never recorded its outcome"))
    rows.append(("Findings", f"critical {f['critical']} · major {f['major']} · minor {f['minor']} open"
                             f" (proposed {f['proposed']}, confirmed {f['confirmed']})"))
    r = f["rates"]
    if r["proposed"]:
        pct = lambda x: "n/a" if x is None else f"{x:.0%}"  # noqa: E731
        rows.append(("", f"confirmation rate {pct(r['confirmation_rate'])} ({r['confirmed']}/{r['proposed']}) · "
                         f"regression capture {pct(r['regression_capture_rate'])} ({r['with_regression_test']}/{r['confirmed']})"))
    rows.append(("Gate", f"{live['verdict']} (evaluated now; last recorded: {doc['gate']['status']})"))
    for i, blocker in enumerate(live["blockers"]):
        rows.append(("Blocking" if i == 0 else "", blocker))
    click.echo(f"{doc['id']}  {doc['title']}")
    for name, value in rows:
        click.echo(f"{name:<14}{value}")
    for w in warnings:
        click.echo(f"WARNING: {w} (check with `harness replay`)", err=True)


def status_json(v: StatusView) -> None:
    doc = v.doc
    emit_json({"task": {k: doc[k] for k in ("id", "title", "description")},
               **{k: val for k, val in doc.items() if k not in ("id", "title", "description")},
               "evidence": v.evidence, "gate_now": v.live, "warnings": v.warnings})


# -- finding steps ---------------------------------------------------------------------
def finding_step_text(st: FindingStep) -> None:
    click.echo(f"{st.id}: {st.status}" + (f"  (next: {st.next})" if st.next else ""))


def finding_step_json(st: FindingStep) -> None:
    emit_json({"id": st.id, "status": st.status, "next": st.next})


def proposed_text(p: Proposed) -> None:
    for fid, item in p.findings:
        click.echo(f"{fid}: PROPOSED  [{item['severity']}] {item['title']}")


def proposed_json(p: Proposed) -> None:
    emit_json([{"id": fid, "status": "PROPOSED", "severity": item["severity"], "title": item["title"]}
               for fid, item in p.findings])


# -- audit -----------------------------------------------------------------------------
def audit_text(a: AuditResult) -> None:
    from harness.cli.hooks import print_problems

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


def audit_json(a: AuditResult) -> None:
    emit_json({**({"range": a.scope} if a.scope else {}), "checked": list(a.commits), "commits": len(a.commits),
               "failed": sum(not r["ok"] for r in a.rows), "could_not_run": a.unrunnable, "results": a.rows})


# result kind (its class name) -> (text reporter, JSON reporter)
REPORTERS: dict[str, tuple[Callable[[Any], None], Callable[[Any], None]]] = {
    "GateOutcome": (gate_text, gate_json),
    "TaskList": (tasks_text, tasks_json),
    "FindingList": (findings_text, findings_json),
    "StatusView": (status_text, status_json),
    "AuditResult": (audit_text, audit_json),
    "FindingStep": (finding_step_text, finding_step_json),
    "Proposed": (proposed_text, proposed_json),
}


def report(result: object, as_json: bool) -> None:
    """Hand ``result`` to its text or its JSON reporter."""
    text, as_data = REPORTERS[type(result).__name__]
    (as_data if as_json else text)(result)
