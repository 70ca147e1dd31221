"""`harness status`: the seed §16 view of the current task, evaluated live."""

from __future__ import annotations

import click

from harness.cli.common import emit_json, json_option, store, task_option, with_return_code
from harness.core import gate as core_gate
from harness.errors import EXIT_INVALID, HarnessError

NO_TREE = ""  # no evidence recorded: nothing can be fresh, so the tree is not computed


@click.command()
@task_option
@json_option
@with_return_code
def status(task_id: str | None, as_json: bool) -> int:
    """Show the task: state, iteration, requirements, invariants, evidence (FRESH or
    STALE, with what changed), findings, and the gate as it would judge right now.

    Start every agent session with this command. Nothing is written. Exit 2 when a
    harness file is invalid (the view is still printed, with the problem named).
    """
    from harness.store import facts, settings

    s = store()
    settings.load_config(s.layout)  # an invalid config.yaml is reported here, not at the next evidence run
    tid = s.current_id(task_id)
    tree, git = NO_TREE, None
    folders = [s.layout.task_dir(tid) / sub for sub in ("evidence", "findings")]
    if any(f.is_dir() and any(f.iterdir()) for f in folders):  # only then is anything judged by tree
        from harness.gitio import Git

        git = Git(s.layout.root)
        tree = git.worktree_source_tree()
    with s.reading():  # ledger, files and evidence read as one consistent state
        task = s.load(tid)
        doc = s.render(task)["task.yaml"]["task"]
        warnings = [d.render() for d in s.disagreements(task)]
        try:
            report = core_gate.evaluate(facts.gate_input(s.source, task, settings.load_gate(s.layout), tree))
            live = report.as_dict(tree)
        except HarnessError as exc:
            live = {"verdict": "INVALID_HARNESS_STATE", "blockers": [exc.render()], "checks": [], "notes": []}
    evidence = {t: {**_freshness(git, r, tree), "program": live.get("programs", {}).get(t)}
                for t, r in sorted(task.proj.evidence.items())}
    from harness.core.findings import rates

    doc["findings"]["rates"] = rates(list(task.proj.findings.values()))
    if as_json:
        emit_json({"task": {k: doc[k] for k in ("id", "title", "description")},
                   **{k: v for k, v in doc.items() if k not in ("id", "title", "description")},
                   "evidence": evidence, "gate_now": live, "warnings": warnings})
    else:
        _print(doc, evidence, live, warnings, task.proj.pending_runs)
    return EXIT_INVALID if live["verdict"] == "INVALID_HARNESS_STATE" else 0


def _freshness(git, record: dict, tree: str) -> dict:
    fresh = record["tree"] == tree
    out = {"outcome": record["outcome"], "exit_code": record["exit_code"], "tree": record["tree"],
           "freshness": "FRESH" if fresh else "STALE", "changed": [], "changed_total": 0}
    if not fresh and git is not None:
        out["changed"], out["changed_total"] = git.changed_paths(record["tree"], tree, limit=5)
    return out


def _print(doc: dict, evidence: dict, live: dict, warnings: list[str], pending: dict) -> None:
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
