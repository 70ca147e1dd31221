"""What `harness audit --rerun` re-executes for one DONE task, read from the committed files.

Evidence: the configured command of each required type and of each type a verified item
cites, expected to end as recorded. Findings: the reviewer's reproducer of a REJECTED one
(it passed, refuting the claim, and must still pass; the files its command names must be
as proposed, or it is no re-run of the reviewer's reproducer); the confirming reproducer and the
regression test of a VERIFIED or CLOSED one (both must pass now). A finding still being
fixed is not re-run: nothing about it is claimed yet.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness import paths
from harness.core.redact import Redactor, compile_patterns, secret_env
from harness.core.suite import DEFAULT_TEST_TYPE
from harness.gitio.tree_source import TreeSource
from harness.history.change_rules import Problem
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
    base: str | None = None   # pass_to_pass, fail_to_pass: the task's base commit
    suite: dict | None = None  # pass_to_pass, fail_to_pass: gate.yaml's suite section at the commit
    # fail_to_pass: the cases that must not pass without the change; the suite's test type: that must pass
    cases: list[str] = field(default_factory=list)


def redactor(src: TreeSource) -> Redactor:
    """What a streamed command line is passed through: a CI log is no place for a token."""
    return compile_patterns(list(settings.config_of(src).redaction), literals=secret_env(os.environ))


def _types_to_rerun(policy: settings.GatePolicy, task: reader.LoadedTask, proving: list[str]) -> list[str]:
    """Required types, every type a verified requirement or invariant leans on, and fail_to_pass
    when test cases prove the verdict."""
    cited = {t for item in (*task.proj.requirements.values(), *task.proj.invariants.values())
             if item["status"] == "verified" for t in item["evidence"]}
    wanted = set(policy.required_types()) | cited
    return sorted(wanted | {"fail_to_pass"} if proving else wanted - {"fail_to_pass"})


def proving_cases(task: reader.LoadedTask, policy: settings.GatePolicy) -> list[str]:
    """The test cases the task's DONE leans on as FAIL_TO_PASS (requirements' and fixed findings')."""
    from harness.core.cases import case_id, proving
    from harness.gate.facts import contract_plan

    reqs = [{**r, "tests": [case_id(t) for t in r.get("tests") or []]} for r in task.proj.requirements.values()]
    return proving(reqs, contract_plan(task), task.proj.findings.values(), bool(policy.suite))


def plan(src: TreeSource, commit: str, task: reader.LoadedTask, policy: settings.GatePolicy,
         problems: list[Problem]) -> list[Planned]:
    commands, records = settings.config_of(src).commands, load_valid(src, task)
    folder = f"{paths.TASKS}/{task.id}"
    out: list[Planned | None] = []
    cases = proving_cases(task, policy)
    test_type = (policy.suite or {}).get("test_type", DEFAULT_TEST_TYPE)
    for etype in _types_to_rerun(policy, task, cases):
        where = f"{folder}/evidence/{etype}.json"
        if etype in ("pass_to_pass", "fail_to_pass"):
            out.append(_suite_run(etype, src, commit, task, policy, records.get(etype) or {}, where, problems, cases))
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
                           f"recorded {etype} {expect[0]} (exit {expect[1]})", conf.junit,
                           cases=cases if etype == test_type and conf.junit else []))
    for fid, f in sorted(task.proj.findings.items()):
        where = f"{folder}/findings/{fid}.yaml"
        changed = _not_as_proposed(src, f) if f["status"] == "REJECTED" else []
        if changed:  # what would run under the reviewer's name is not the reviewer's reproducer
            problems.append(Problem(where, "rerun-reproduces", f"{fid} is REJECTED, but at {commit[:12]} "
                                    f"{', '.join(changed)} is not the file its reviewer's reproducer was proposed "
                                    "with: a run of it would not be the reviewer's reproducer (not re-run)",
                                    f"restore {', '.join(changed)} as proposed (finding.proposed keeps the sha256), "
                                    f"then re-check: harness finding reproduce {fid}"))
            continue
        out.extend(_finding_runs(task.id, where, f))
    return [p for p in out if p is not None]


def _suite_run(kind: str, src: TreeSource, commit: str, task: reader.LoadedTask, policy: settings.GatePolicy,
               record: dict, where: str, problems: list[Problem], cases: list[str]) -> Planned | None:
    """PASS_TO_PASS and FAIL_TO_PASS are re-measured, not re-run from a command: the base's cases and
    the overlays are computed here."""
    spec = policy.suite or {}
    test_type = spec.get("test_type", DEFAULT_TEST_TYPE)
    conf = settings.config_of(src).commands.get(test_type)
    if not spec or conf is None or not conf.junit:
        problems.append(Problem(where, "rerun-reproduces", f"{kind} at {commit[:12]} has no suite: section or no "
                                f"{test_type} command with a junit report: the recorded result cannot be re-run",
                                "configure both, re-collect, re-gate"))
        return None
    expect = (record.get("outcome"), None)
    return Planned(task.id, kind, kind, where, conf.to_run(), conf.shell, conf.timeout, expect,
                   f"recorded {kind} {expect[0]}", conf.junit, task.proj.base_commit, spec,
                   cases if kind == "fail_to_pass" else [])


def _argv(run: dict | None) -> list[str] | None:
    if not run:
        return None
    if run.get("argv"):
        return list(run["argv"])
    return shlex.split(run["command"]) if run.get("command") else None


def _not_as_proposed(src: TreeSource, f: Mapping[str, Any]) -> list[str]:
    """The files the reviewer's reproducer names that the commit does not hold as they were proposed (a
    proposal from before they were kept binds none)."""
    from harness.core.finding_binding import changed_files, recheck_changed
    from harness.core.sha256 import sha256
    from harness.core.test_source import test_source

    def held(key: str) -> bytes | None:  # a file's bytes; for `FILE::TEST`, that test's source in the file
        rel, sep, test = key.partition("::")
        data = None if rel.startswith("/") else src.read_or_none(rel)  # a file outside the repository: no commit's
        return test_source(data, test) if sep and data is not None else data

    bound = (f.get("proposed_on") or {}).get("files") or {}
    now = {rel: sha256(data).hexdigest() if (data := held(rel)) is not None else None for rel in bound}
    return recheck_changed(f, {"changed": changed_files(bound, now)})


def _finding_runs(tid: str, where: str, f: Mapping[str, Any]) -> list[Planned]:
    from harness.core.finding_binding import recheck_changed
    from harness.core.findings import recommended_command

    fid, status, out = f["id"], f["status"], []
    if status == "REJECTED":
        recommended = recommended_command(f["content"])
        runs = [a for a in f["attempts"]
                if recommended is None or (a["command"] == recommended and not recheck_changed(f, a))]
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
