"""Assemble what the gate judges — from the working tree or from a commit."""

from __future__ import annotations

from harness.core import gate
from harness.store.evidence_files import load_valid
from harness.store.reader import LoadedTask
from harness.store.settings import GatePolicy
from harness.store.source import Source


def gate_input(src: Source, task: LoadedTask, policy: GatePolicy, tree: str) -> gate.GateInput:
    p = task.proj
    pending: dict[str, list[str]] = {}
    for run in p.pending_runs.values():
        pending.setdefault(run["type"], []).append(run.get("started_at") or f"as run {run['run_id']}")
    return gate.GateInput(
        state=p.state,
        requirements=list(p.requirements.values()),
        invariants=list(p.invariants.values()),
        evidence=load_valid(src, task),
        pending=pending,
        findings=[{**f, "regression_fresh": _regression_fresh(f, tree)} for f in p.findings.values()],
        policy=policy.doc,
        tree=tree,
    )


def _regression_fresh(finding: dict, tree: str) -> bool | None:
    run = finding.get("regression_run")
    return None if not run else run.get("tree") == tree
