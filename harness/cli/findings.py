"""`harness finding …`: reviewer findings that become bugs only through runs the harness made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from harness.cli.common import json_option, store, task_option, with_return_code
from harness.core import finding_events
from harness.core import findings as rules
from harness.core.chain import LedgerProblem
from harness.core.records import Finding
from harness.errors import HarnessError, Refused
from harness.store.reader import LoadedTask


def _finding(task: LoadedTask, fid: str, event: str) -> Finding:
    """The finding, when its status allows ``event`` — asked before a command is run for it
    (replay asks the same question again when the event is appended)."""
    try:
        return finding_events.finding_for(task.proj, fid, event)
    except LedgerProblem as exc:
        raise Refused(exc.message, exc.hint) from None


def _step(task_id: str | None, fid: str, event: str, data: dict[str, Any] | None = None) -> None:
    """Append one finding event; replay refuses it (with its hint) when a rule forbids it."""
    s = store()
    tid = s.current_id(task_id)
    task = s.append(tid, [(event, {"id": fid, **(data or {})})])
    status = task.proj.findings[fid]["status"]
    hint = rules.NEXT_STEP.get(status)
    click.echo(f"{fid}: {status}" + (f"  (next: {hint.format(id=fid)})" if hint else ""))


@click.group()
def finding() -> None:
    """Findings (F-0001…): PROPOSED → REPRODUCING → CONFIRMED | REJECTED;
    CONFIRMED → FIXING → FIXED → VERIFIED → CLOSED. No step without its fact."""


@finding.command("propose")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help="YAML: one finding, a list, or {findings: [...]} (see `harness review packet`).")
@task_option
def propose(path: Path, task_id: str | None) -> None:
    """Record a reviewer's findings as PROPOSED, whatever status the file claims."""
    from harness.store import validate, yamlio

    raw = path.read_bytes()
    doc = yamlio.parse(raw, str(path))
    items = doc.get("findings") if isinstance(doc, dict) and "findings" in doc else doc
    items = [items] if isinstance(items, dict) else items
    if not isinstance(items, list) or not items:
        raise HarnessError(f"{path}: expected a finding, a list of findings, or {{findings: [...]}}")
    for n, item in enumerate(items):
        # Said plainly first; the schema enforces the same rule, in its own words.
        missing = rules.missing_reproducer(item) if isinstance(item, dict) else None
        if missing:
            raise HarnessError(f"{path} (finding {n + 1}): {missing}",
                               hint="ask the reviewer for the command that fails while the defect exists, "
                                    "or propose it as minor")
        validate.check(item, "finding-proposal", f"{path} (finding {n + 1})")
    s = store()
    tid = s.current_id(task_id)
    ids: list[str] = []

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        start = max((int(f.split("-")[1]) for f in task.proj.findings), default=0)
        ids.extend(f"F-{start + n:04d}" for n in range(1, len(items) + 1))
        content = [{k: v for k, v in item.items() if k not in ("id", "status")} for item in items]
        return [("finding.proposed", {"id": fid, "content": c}) for fid, c in zip(ids, content)]

    s.append(tid, [], precheck=precheck)
    for fid, item in zip(ids, items):
        click.echo(f"{fid}: PROPOSED  [{item['severity']}] {item['title']}")


@finding.command("reproduce", context_settings={"ignore_unknown_options": True})
@click.argument("fid", metavar="F-ID")
@click.argument("argv", nargs=-1, metavar="[-- COMMAND ...]")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Seconds before the run is killed.")
@task_option
@with_return_code
def reproduce(fid: str, argv: tuple[str, ...], timeout: float | None, task_id: str | None) -> int:
    """Run the reproducer (default: the finding's recommended command). A failing run
    makes the finding CONFIRMED; a passing run is recorded as an attempt."""
    from harness.reproduce import command_of, run_fact

    s = store()
    task = s.load(s.current_id(task_id))
    f = _finding(task, fid, "finding.reproduced")
    command = command_of(argv, (f["content"].get("recommended_reproducer") or {}).get("command"))
    if not command:
        raise Refused(f"{fid} names no reproducer command", hint=f"harness finding reproduce {fid} -- COMMAND ...")
    # Replay refuses a run that never reached an exit code (not found, timed out): no attempt.
    _step(task_id, fid, "finding.reproduced", run_fact(s, command, timeout))
    return 0


@finding.command("reject")
@click.argument("fid", metavar="F-ID")
@click.option("--reason", required=True, help="Why the claim does not hold.")
@task_option
def reject(fid: str, reason: str, task_id: str | None) -> None:
    """Reject a finding — only after a run of the reviewer's reproducer that did not fail.
    A minor finding its reviewer gave no reproducer rests on the reason alone."""
    _step(task_id, fid, "finding.rejected", {"reason": reason})


@finding.command("regression", context_settings={"ignore_unknown_options": True})
@click.argument("fid", metavar="F-ID")
@click.argument("path")
@click.argument("argv", nargs=-1, metavar="[-- COMMAND ...]")
@task_option
def regression(fid: str, path: str, argv: tuple[str, ...], task_id: str | None) -> None:
    """Attach the regression test PATH: it must exist and must FAIL now (the reproducer kept).
    COMMAND runs it (default: the command that confirmed the finding). Then FIXING."""
    from harness.reproduce import command_of, run_fact

    s = store()
    task = s.load(s.current_id(task_id))
    f = _finding(task, fid, "finding.regression")
    target = (s.layout.root / path).resolve()
    if not target.is_file() or s.layout.root.resolve() not in target.parents:
        raise Refused(f"regression test {path} does not exist in the repository", hint="write the test first")
    rel = target.relative_to(s.layout.root.resolve()).as_posix()

    if s.git.is_ignored(rel):
        raise Refused(f"regression test {rel} is ignored by git: it is not part of the source tree",
                      hint="put the test where git tracks it")
    repro = f["reproduction"] or {}
    command = command_of(argv, repro.get("argv") or repro.get("command"))
    if command is None:
        raise Refused(f"{fid} has no command to run {rel} with", hint=f"harness finding regression {fid} {rel} -- COMMAND")
    try:  # asked before the run; replay asks it again of the event
        finding_events.regression_command_runs(fid, rel, command)
    except LedgerProblem as exc:
        raise Refused(exc.message, exc.hint) from None
    # Replay refuses a test that did not fail ("must fail when attached"), with its hint.
    _step(task_id, fid, "finding.regression", {**run_fact(s, command), "path": rel})


@finding.command("fixed")
@click.argument("fid", metavar="F-ID")
@task_option
def fixed(fid: str, task_id: str | None) -> None:
    """Mark the fix as written (FIXING → FIXED); `verify` proves it."""

    s = store()
    head = s.git.head()
    _step(task_id, fid, "finding.fixed", {"commit": head})


@finding.command("verify")
@click.argument("fid", metavar="F-ID")
@task_option
@with_return_code
def verify(fid: str, task_id: str | None) -> int:
    """Re-run the regression test (must pass) and require fresh passing evidence for every
    required type in gate.yaml (the full suite) → VERIFIED."""
    from harness.reproduce import run_fact
    from harness.store import settings
    from harness.store.evidence_files import load_valid

    s = store()
    task = s.load(s.current_id(task_id))
    f = _finding(task, fid, "finding.verified")
    load_valid(s.source, task)  # evidence files edited after they were recorded are refused (exit 2)
    reg, repro = f["regression_test"] or {}, f["reproduction"] or {}
    run = run_fact(s, reg.get("argv") or reg["command"])
    # The confirming reproducer runs only when the regression test passed: replay refuses a
    # failing regression run first, so running it then would be wasted.
    confirming = (run_fact(s, repro.get("argv") or repro["command"])
                  if repro.get("command") and run["outcome"] == "passed" else None)
    full = {"types": settings.load_gate(s.layout).required_types(), "tree": run["tree"]}
    # Replay judges it, in order: the regression test passes, on a changed tree; the confirming
    # reproducer passes; full-suite evidence of every required type is fresh and passing.
    _step(task_id, fid, "finding.verified", {"regression": run, "full_suite": full, "reproducer": confirming})
    return 0


@finding.command("close")
@click.argument("fid", metavar="F-ID")
@task_option
def close(fid: str, task_id: str | None) -> None:
    """Close a VERIFIED finding."""
    _step(task_id, fid, "finding.closed")


@finding.command("list")
@task_option
@json_option
def list_(task_id: str | None, as_json: bool) -> None:
    """Findings of the task with their status, and the confirmation / regression capture rates."""
    from harness.cli.reporters import report
    from harness.usecases.listing import list_findings

    report(list_findings(store(), task_id), as_json)
