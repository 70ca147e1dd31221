"""`harness status`: the seed §16 view of the current task, evaluated live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from harness.cli.common import (
    emit_json,
    json_option,
    store,
    task_option,
    with_return_code,
)
from harness.cli.progress import COMMIT_DONE, done_in_head, loop_counts, print_next
from harness.core import gate as core_gate
from harness.core import next_step
from harness.errors import EXIT_INVALID, HarnessError

if TYPE_CHECKING:
    from harness.core.ledger import Projection
    from harness.gitio import Git
    from harness.store.tasks import TaskStore

NO_TREE = ""  # no evidence recorded: nothing can be fresh, so the tree is not computed


@click.command()
@task_option
@json_option
@with_return_code
def status(task_id: str | None, as_json: bool) -> int:
    """Show the task: state, iteration, requirements, invariants, evidence (FRESH or
    STALE, with what changed), findings, and the gate as it would judge right now.

    Start every agent session with this command. It ends with `Next:` lines: the command
    to run next and why. With no open task it lists the finished ones and exits 0.
    Nothing is written. Exit 2 when a harness file is invalid (the view is still printed,
    with the problem named).
    """
    from harness.store import facts, settings

    s = store()
    settings.load_config(s.layout)  # an invalid config.yaml is reported here, not at the next evidence run
    try:
        tid = s.current_id(task_id)
    except HarnessError:
        if task_id is None and not s.open_ids():  # nothing chosen and nothing open: not an error
            return _no_open_task(s, as_json)
        raise
    tree, git = NO_TREE, None
    folders = [s.layout.task_dir(tid) / sub for sub in ("evidence", "findings")]
    done = s.load(tid, docs=False).proj.state == "DONE"
    if done or any(f.is_dir() and any(f.iterdir()) for f in folders):  # only then is anything judged by tree
        from harness.gitio import Git

        git = Git(s.layout.root)
        tree = git.worktree_source_tree()
    with s.reading():  # ledger, files and evidence read as one consistent state
        task = s.load(tid)
        doc = s.render(task)["task.yaml"]["task"]
        warnings = [d.render() for d in s.disagreements(task)]
        try:
            policy = settings.load_gate(s.layout)
            gi = facts.gate_input(s.source, task, policy, tree)
            report = core_gate.evaluate(gi)
            live = report.as_dict(tree)
            live["blockers"] = next_step.work_blockers(gi.state, live["blockers"])
            p = task.proj
            steps = next_step.for_gate_input(gi, live["blockers"], iteration=p.iteration,
                                             max_iterations=p.max_iterations,
                                             gate_pass=p.gate_pass_for(tree, policy.digest)[0],
                                             **loop_counts(task.lines, policy.doc))
        except HarnessError as exc:
            live = {"verdict": "INVALID_HARNESS_STATE", "blockers": [exc.render()], "checks": [], "notes": []}
            steps = [next_step.NextStep("harness replay", "a harness file is invalid: see what disagrees, and how to fix it")]
    if warnings:
        steps.insert(0, next_step.REPLAY_WRITE)
    waiting = [i for i in s.open_ids() if i != tid] if task.proj.state in ("DONE", "ESCALATED") else []
    if waiting:
        steps.insert(0, next_step.NextStep(f"harness task switch {waiting[0]}",
                                           f"{tid} is finished; {len(waiting)} open task(s) wait"))
    if task.proj.state == "DONE" and not done_in_head(s, tid, len(task.lines)):
        steps.insert(0, COMMIT_DONE)
    finished = _done_at(task.proj, tree) if done else None
    escalated = _escalation(task.lines) if task.proj.state == "ESCALATED" else None
    evidence = {t: {**_freshness(git, r, tree), "program": live.get("programs", {}).get(t)}
                for t, r in sorted(task.proj.evidence.items())}
    from harness.core.findings import rates

    doc["findings"]["rates"] = rates(list(task.proj.findings.values()))
    if as_json:
        emit_json({"task": {k: doc[k] for k in ("id", "title", "description")},
                   **{k: v for k, v in doc.items() if k not in ("id", "title", "description")},
                   "evidence": evidence, "gate_now": live, "done": finished, "escalated": escalated,
                   "warnings": warnings,
                   "next": [n.as_dict() for n in steps]})
    else:
        _print(doc, evidence, live, warnings, task.proj.pending_runs, finished, escalated)
        print_next(steps)
    return EXIT_INVALID if live["verdict"] == "INVALID_HARNESS_STATE" else 0


def _freshness(git: Git | None, record: Mapping[str, Any], tree: str) -> dict[str, Any]:
    fresh = record["tree"] == tree
    out = {"outcome": record["outcome"], "exit_code": record["exit_code"], "tree": record["tree"],
           "freshness": "FRESH" if fresh else "STALE", "changed": [], "changed_total": 0}
    if not fresh and git is not None:
        out["changed"], out["changed_total"] = git.changed_paths(record["tree"], tree, limit=5)
    return out


def _no_open_task(s: TaskStore, as_json: bool) -> int:
    """No open task: a fresh repository, or a clone where every task is finished. Not an error."""
    rows: list[dict] = []
    for tid in s.task_ids():
        try:
            p = s.load(tid, docs=False).proj
            rows.append({"id": tid, "state": p.state, "title": p.title, "head": p.head})
        except HarnessError as exc:
            rows.append({"id": tid, "state": "INVALID", "title": exc.message, "head": None})
    steps = next_step.NO_TASK
    if as_json:
        emit_json({"task": None, "tasks": rows, "next": [n.as_dict() for n in steps]})
    else:
        if rows:
            counts: dict[str, int] = {}
            for r in rows:
                counts[r["state"]] = counts.get(r["state"], 0) + 1
            click.echo(f"No open task. {len(rows)} finished: " + ", ".join(f"{n} {st}" for st, n in sorted(counts.items())))
            for r in rows:
                at = f" at {r['head'][:12]}" if r["head"] else ""
                click.echo(f"  {r['id']}  {r['state']}{at}  {r['title']}")
        else:
            click.echo("No task yet.")
        print_next(steps)
    return EXIT_INVALID if any(r["state"] == "INVALID" for r in rows) else 0


def _done_at(p: Projection, tree: str) -> dict:
    """Where a DONE task was gated, and whether the source has moved on since."""
    gated = (p.last_gate or {}).get("tree")
    return {"commit": p.head, "tree": gated, "changed_since": bool(tree) and gated != tree}


def _escalation(lines: list[str]) -> str | None:
    """The reason recorded when the task was escalated."""
    import json

    for line in reversed(lines):
        event = json.loads(line)
        if event["type"] == "task.transitioned" and event["data"].get("to") == "ESCALATED":
            return event["data"].get("reason")
    return None


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
    rows.append(("Findings", f"critical {f['critical']} · major {f['major']} · minor {f['minor']} open"
                             f" (proposed {f['proposed']}, confirmed {f['confirmed']})"))
    r = f["rates"]
    if r["proposed"]:
        pct = lambda x: "n/a" if x is None else f"{x:.0%}"  # noqa: E731
        rows.append(("", f"confirmation rate {pct(r['confirmation_rate'])} ({r['confirmed']}/{r['proposed']}) · "
                         f"regression capture {pct(r['regression_capture_rate'])} ({r['with_regression_test']}/{r['confirmed']})"))
    at = (finished or {}).get("commit")
    if doc["state"] == "ESCALATED":
        rows.append(("Escalated", escalated or "no reason recorded"))
    elif finished and finished["changed_since"]:
        rows.append(("Gate", f"DONE at {str(at)[:12]}; the code has changed since (a new task covers new work)"))
    elif finished:
        rows.append(("Gate", f"DONE at {str(at)[:12]}; gate PASS on this source tree"))
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
