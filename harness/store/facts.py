"""Assemble what the gate judges — from the working tree or from a commit."""

from __future__ import annotations

from harness.core import gate
from harness.core.records import Finding
from harness.store import settings
from harness.store.evidence_files import load_valid
from harness.store.reader import LoadedTask
from harness.store.settings import GatePolicy
from harness.store.source import Source


def configured_commands(src: Source) -> dict[str, list[str]]:
    """type -> the argv config.yaml names for it, as an evidence record would show it."""
    return settings.config_of(src).configured_argv()


def configured_as_recorded(src: Source) -> dict[str, list[str]]:
    """type -> the argv an evidence record of config.yaml's command shows: the configured
    argv through the very redaction `harness evidence` applies (the config's patterns and
    this process's secret-named variables), so the gate compares like with like."""
    import os

    from harness.core.redact import compile_patterns, redact_argv, secret_env

    config = settings.config_of(src)
    if not config.commands:
        return {}
    redactor = compile_patterns(list(config.redaction), literals=secret_env(os.environ))
    return {t: redact_argv(argv, redactor) for t, argv in config.configured_argv().items()}


def contract_plan(task: LoadedTask) -> dict[str, list[str]]:
    contract = (task.proj.contract or {}).get("contract") or {}
    return {item["id"]: list(item.get("verified_by") or [])
            for key in ("requirements", "invariants") for item in contract.get(key) or []}


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
        configured=configured_as_recorded(src),
        plan=contract_plan(task),
    )


def _regression_fresh(finding: Finding, tree: str) -> bool | None:
    run = finding.get("regression_run")
    return None if not run else run.get("tree") == tree
