"""`harness status`'s text and JSON reporters."""

from __future__ import annotations

import click

from harness.cli.common import emit_json
from harness.cli.progress import print_next
from harness.cli.reporters import json_report, text_report
from harness.cli.reporters import report as report  # what `harness status` calls
from harness.core import gate as core_gate
from harness.core import next_step
from harness.usecases.status import NoOpenTask, StatusView


@text_report.register
def status_text(v: StatusView) -> None:
    _print(v.doc, v.evidence, v.live, v.warnings, v.pending, v.finished, v.escalated)
    print_next(v.steps)


@json_report.register
def status_json(v: StatusView) -> None:
    doc = v.doc
    emit_json({"task": {k: doc[k] for k in ("id", "title", "description")},
               **{k: val for k, val in doc.items() if k not in ("id", "title", "description")},
               "evidence": v.evidence, "gate_now": v.live, "done": v.finished, "escalated": v.escalated,
               "warnings": v.warnings,
               "next": next_step.as_data(v.steps)})


@text_report.register
def no_task_text(n: NoOpenTask) -> None:
    rows = n.rows
    if rows:
        counts: dict[str, int] = {}
        for r in rows:
            counts[r["state"]] = counts.get(r["state"], 0) + 1
        click.echo(f"No open task. {len(rows)} finished: " + ", ".join(f"{c} {st}" for st, c in sorted(counts.items())))
        for r in rows:
            at = f" at {r['done_commit'][:12]}" if r.get("done_commit") else ""
            click.echo(f"  {r['id']}  {r['state']}{at}  {r['title']}")
    else:
        click.echo("No task yet.")
    print_next(n.steps)


@json_report.register
def no_task_json(n: NoOpenTask) -> None:
    emit_json({"task": None, "tasks": n.rows, "next": next_step.as_data(n.steps)})


def _print(doc: dict, evidence: dict, live: dict, warnings: list[str], pending: dict, finished: dict | None,
           escalated: str | None = None) -> None:
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
    reopened = f", rejected but not refuted on this tree {f['unrefuted']}" if f.get("unrefuted") else ""
    rows.append(("Findings", f"critical {f['critical']} · major {f['major']} · minor {f['minor']} open"
                             f" (proposed {f['proposed']}, confirmed {f['confirmed']}{reopened})"))
    r = f["rates"]
    if r["proposed"]:
        pct = lambda x: "n/a" if x is None else f"{x:.0%}"  # noqa: E731
        rows.append(("", f"confirmation rate {pct(r['confirmation_rate'])} ({r['confirmed']}/{r['proposed']}) · "
                         f"regression capture {pct(r['regression_capture_rate'])} ({r['with_regression_test']}/{r['confirmed']})"))
    at = (finished or {}).get("commit")
    where = (f"DONE at {at[:12]}" if at else "DONE, not committed yet" if finished and not finished["committed"]
             else "DONE (its commit is not in this branch's history)")
    if doc["state"] == "ESCALATED":
        rows.append(("Escalated", escalated or "no reason recorded"))
    elif finished and finished["changed_since"]:
        rows.append(("Gate", f"{where}; the code has changed since the gate passed source tree "
                             f"{str(finished['tree'])[:12]} (a new task covers new work)"))
    elif finished:
        rows.append(("Gate", f"{where}; gate PASS on this source tree"))
    else:
        verdict = f"{live['verdict']} (evaluated now; last recorded: {doc['gate']['status']})"
        if doc["state"] not in core_gate.DECIDING_STATES and live["verdict"] == "BLOCKED":
            verdict = ("decides in GATING; would be blocked now by:" if live["blockers"]
                       else "decides in GATING; nothing else blocks it now")
        rows.append(("Gate", verdict))
        for i, blocker in enumerate(live["blockers"]):
            rows.append(("Blocking" if i == 0 else "", blocker))
    click.echo(f"{doc['id']}  {doc['title']}")
    for name, value in rows:
        click.echo(f"{name:<14}{value}")
    for w in warnings:
        click.echo(f"WARNING: {w} (check with `harness replay`)", err=True)
