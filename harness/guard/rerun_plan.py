"""What `harness audit --rerun` re-executes for one DONE task, read from the committed files.

Evidence: the configured command of each required type and of each type a verified item
cites, expected to end as recorded. Findings: the reviewer's reproducer of a REJECTED one
(it passed, refuting the claim, and must still pass); the confirming reproducer and the
regression test of a VERIFIED or CLOSED one (both must pass now). A finding still being
fixed is not re-run: nothing about it is claimed yet.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.core.redact import Redactor, compile_patterns, secret_env
from harness.gitio.tree_source import TreeSource
from harness.guard.validate import Problem
from harness.store import reader, settings
from harness.store.evidence_files import load_valid


@dataclass
class Planned:
    task: str
    kind: str  # evidence | reproducer | regression
    what: str  # the evidence type, or the finding and which of its commands
    record: str  # the file whose claim the run checks
    command: list[str] | str
    shell: bool
    timeout: float | None
    expect: tuple[str | None, int | None]  # (outcome, exit code) recorded; exit None: any
    claim: str  # what the record says, in words
    junit: str | None = None  # the report that can fail a run that exited 0, as the gate reads it
    base: str | None = None   # pass_to_pass: the task's base commit
    suite: dict | None = None  # pass_to_pass: gate.yaml's suite section at the commit


def redactor(src: TreeSource) -> Redactor:
    """What a streamed command line is passed through: a CI log is no place for a token."""
    return compile_patterns(list(settings.config_of(src).redaction), literals=secret_env(os.environ))


def _types_to_rerun(policy: settings.GatePolicy, task: reader.LoadedTask) -> list[str]:
    """Required types, and every type a verified requirement or invariant leans on. (Not yet
    fail_to_pass: its runs carry case lists the gate reads, and CI does not re-measure those.)"""
    cited = {t for item in (*task.proj.requirements.values(), *task.proj.invariants.values())
             if item["status"] == "verified" for t in item["evidence"]}
    return sorted((set(policy.required_types()) | cited) - {"fail_to_pass"})


def plan(src: TreeSource, commit: str, task: reader.LoadedTask, policy: settings.GatePolicy,
         problems: list[Problem]) -> list[Planned]:
    commands, records = settings.config_of(src).commands, load_valid(src, task)
    folder = f".harness/tasks/{task.id}"
    out: list[Planned | None] = []
    for etype in _types_to_rerun(policy, task):
        where = f"{folder}/evidence/{etype}.json"
        if etype == "pass_to_pass":
            out.append(_pass_to_pass(src, commit, task, policy, records.get(etype) or {}, where, problems))
            continue
        conf = commands.get(etype)
        if conf is None:
            problems.append(Problem(where, "rerun-reproduces", f"no evidence.{etype}.command in config.yaml at "
                                    f"{commit[:12]}: the recorded result cannot be re-run",
                                    "configure the command, re-collect, re-gate"))
            continue
        record = records.get(etype) or {}
        expect = (record.get("outcome"), record.get("exit_code"))
        out.append(Planned(task.id, "evidence", etype, where, conf.to_run(), conf.shell, conf.timeout, expect,
                           f"recorded {etype} {expect[0]} (exit {expect[1]})", conf.junit))
    for fid, f in sorted(task.proj.findings.items()):
        out.extend(_finding_runs(task.id, f"{folder}/findings/{fid}.yaml", f))
    return [p for p in out if p is not None]


def _pass_to_pass(src: TreeSource, commit: str, task: reader.LoadedTask, policy: settings.GatePolicy,
                  record: dict, where: str, problems: list[Problem]) -> Planned | None:
    """PASS_TO_PASS is re-measured, not re-run from a command: base cases and overlay computed here."""
    spec = policy.suite or {}
    from harness.core.suite import DEFAULT_TEST_TYPE

    test_type = spec.get("test_type", DEFAULT_TEST_TYPE)
    conf = settings.config_of(src).commands.get(test_type)
    if not spec or conf is None or not conf.junit:
        problems.append(Problem(where, "rerun-reproduces", f"pass_to_pass at {commit[:12]} has no suite: section or no "
                                f"{test_type} command with a junit report: the recorded result cannot be re-run",
                                "configure both, re-collect, re-gate"))
        return None
    expect = (record.get("outcome"), None)
    return Planned(task.id, "pass_to_pass", "pass_to_pass", where, conf.to_run(), conf.shell, conf.timeout, expect,
                   f"recorded pass_to_pass {expect[0]}", conf.junit, task.proj.base_commit, spec)


def _argv(run: dict | None) -> list[str] | None:
    if not run:
        return None
    if run.get("argv"):
        return list(run["argv"])
    return shlex.split(run["command"]) if run.get("command") else None


def _finding_runs(tid: str, where: str, f: Mapping[str, Any]) -> list[Planned]:
    from harness.core.findings import recommended_command

    fid, status, out = f["id"], f["status"], []
    if status == "REJECTED":
        recommended = recommended_command(f["content"])
        runs = [a for a in f["attempts"] if recommended is None or a["command"] == recommended]
        argv = _argv(runs[-1] if runs else None)
        if argv:
            out.append(Planned(tid, "reproducer", f"{fid} (rejected)", where, argv, False, None, ("passed", None),
                               f"{fid} was REJECTED: its reviewer's reproducer passed, refuting the claim"))
    elif status in ("VERIFIED", "CLOSED"):
        argv = _argv(f.get("reproduction"))
        if argv:
            out.append(Planned(tid, "reproducer", f"{fid} (fixed)", where, argv, False, None, ("passed", None),
                               f"{fid} is {status}: the reproducer that confirmed it passes now"))
        reg = f.get("regression_test") or {}
        argv = _argv(reg)
        if argv:
            out.append(Planned(tid, "regression", f"{fid} {reg.get('path')}", where, argv, False, None,
                               ("passed", None), f"{fid} is {status}: its regression test passes"))
    return out
