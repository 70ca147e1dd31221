"""`harness status`'s output as lines, without click: printed by the click command's reporters
(harness.cli.status_report) and by the launcher's fast path (harness.cli.status_fast) alike, so
that the two cannot differ."""

from __future__ import annotations

from harness.cli.next_text import next_lines
from harness.core import gate as core_gate
from harness.task.status import NoOpenTask, StatusView

Line = tuple[bool, str]  # (on stderr, the text): in the order they are printed


def status_lines(v: StatusView) -> list[Line]:
    doc = v.doc
    rows = _rows(doc, v.evidence, v.live, v.pending) + _gate_rows(doc, v.live, v.finished, v.escalated)
    out: list[Line] = [(False, f"{doc['id']}  {doc['title']}")]
    out += [(False, f"{name:<14}{value}") for name, value in rows]
    out += [(True, f"WARNING: {w} (check with `harness replay`)") for w in v.warnings]
    return out + [(False, line) for line in next_lines(v.steps)]


def lines_of(result: StatusView | NoOpenTask) -> list[Line]:
    """The lines of either result of `harness status`, picked by its type (functools.singledispatch's
    import is more than the fast path spends on the rest of its output)."""
    return _LINES[type(result)](result)  # type: ignore[operator]


def no_task_lines(n: NoOpenTask) -> list[Line]:
    rows = n.rows
    out: list[Line] = []
    if rows:
        counts: dict[str, int] = {}
        for r in rows:
            counts[r["state"]] = counts.get(r["state"], 0) + 1
        out.append((False, f"No open task. {len(rows)} finished: "
                           + ", ".join(f"{c} {st}" for st, c in sorted(counts.items()))))
        for r in rows:
            at = f" at {r['done_commit'][:12]}" if r.get("done_commit") else ""
            out.append((False, f"  {r['id']}  {r['state']}{at}  {r['title']}"))
    else:
        out.append((False, "No task yet."))
    return out + [(False, line) for line in next_lines(n.steps)]


_LINES = {StatusView: status_lines, NoOpenTask: no_task_lines}


def _rows(doc: dict, evidence: dict, live: dict, pending: dict) -> list[tuple[str, str]]:
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
    return rows


def _gate_rows(doc: dict, live: dict, finished: dict | None, escalated: str | None) -> list[tuple[str, str]]:
    at = (finished or {}).get("commit")
    where = (f"DONE at {at[:12]}" if at else "DONE, not committed yet" if finished and not finished["committed"]
             else "DONE (its commit is not in this branch's history)")
    if doc["state"] == "ESCALATED":
        return [("Escalated", escalated or "no reason recorded")]
    if finished and finished.get("config_unapproved"):
        return [("Gate", f"{where}; its commit is refused while config.yaml holds a change no human approved"),
                ("Blocking", finished["config_unapproved"])]
    if finished and finished["changed_since"]:
        return [("Gate", f"{where}; the code has changed since the gate passed source tree "
                         f"{str(finished['tree'])[:12]} (a new task covers new work)")]
    if finished:
        return [("Gate", f"{where}; gate PASS on this source tree")]
    verdict = f"{live['verdict']} (evaluated now; last recorded: {doc['gate']['status']})"
    if doc["state"] not in core_gate.DECIDING_STATES and live["verdict"] == "BLOCKED":
        verdict = ("decides in GATING; would be blocked now by:" if live["blockers"]
                   else "decides in GATING; nothing else blocks it now")
    rows = [("Gate", verdict)]
    rows += [("Blocking" if i == 0 else "", blocker) for i, blocker in enumerate(live["blockers"])]
    return rows
