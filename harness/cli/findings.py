"""`harness finding …`: reviewer findings that become bugs only through runs the harness made."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli.common import emit_json, json_option, store, task_option, with_return_code
from harness.core import findings as rules
from harness.errors import HarnessError, Refused


def _finding(task, fid: str) -> dict:
    if fid not in task.proj.findings:
        known = ", ".join(task.proj.findings) or "none"
        raise Refused(f"no finding {fid} in {task.id}", hint=f"known findings: {known}")
    return task.proj.findings[fid]


def _step(task_id: str | None, fid: str, event: str, build) -> dict:
    """Append one finding event; ``build(task, finding)`` returns its data or raises Refused."""
    s = store()
    tid = s.current_id(task_id)
    out: dict = {}

    def precheck(task):
        out.update(build(task, _finding(task, fid)))
        return [(event, {"id": fid, **out})]

    task = s.append(tid, [], precheck=precheck)
    status = task.proj.findings[fid]["status"]
    hint = rules.NEXT_STEP.get(status)
    click.echo(f"{fid}: {status}" + (f"  (next: {hint.format(id=fid)})" if hint else ""))
    return out


def _requiring(*statuses: str, action: str, data: dict | None = None):
    """A ``build`` for :func:`_step` that only checks the finding's status."""
    def build(task, f):
        _need(f, *statuses, action=action)
        return dict(data or {})
    return build


def _need(f: dict, *statuses: str, action: str) -> None:
    if f["status"] not in statuses:
        hint = rules.NEXT_STEP.get(f["status"])
        raise Refused(f"{f['id']} is {f['status']}: cannot {action} (needs {' or '.join(statuses)})",
                      hint=hint.format(id=f["id"]) if hint else f"{f['status']} is final")


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

    def precheck(task):
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
    f = _finding(task, fid)
    _need(f, "PROPOSED", "REPRODUCING", "REJECTED", action="reproduce")
    command = command_of(argv, (f["content"].get("recommended_reproducer") or {}).get("command"))
    if not command:
        raise Refused(f"{fid} names no reproducer command", hint=f"harness finding reproduce {fid} -- COMMAND ...")
    fact = run_fact(s, command, timeout)
    if fact["outcome"] not in ("passed", "failed"):
        raise Refused(f"the reproducer did not run to an exit code ({fact['outcome']}): nothing is concluded",
                      hint="fix the command; a run that never executed is not an attempt")
    _step(task_id, fid, "finding.reproduced",
          _requiring("PROPOSED", "REPRODUCING", "REJECTED", action="reproduce", data=fact))
    return 0


@finding.command("reject")
@click.argument("fid", metavar="F-ID")
@click.option("--reason", required=True, help="Why the claim does not hold.")
@task_option
def reject(fid: str, reason: str, task_id: str | None) -> None:
    """Reject a finding — only after a run of the reviewer's reproducer that did not fail.
    A minor finding its reviewer gave no reproducer rests on the reason alone."""
    def build(task, f):
        _need(f, "REPRODUCING", action="reject")
        problem = rules.rejection_problem(f)
        if problem:
            raise Refused(f"{fid}: {problem}",
                          hint=f"harness finding reproduce {fid} (runs the reviewer's reproducer; a pass refutes the claim)")
        if not reason.strip():
            raise Refused("a rejection needs a reason")
        return {"reason": reason}

    _step(task_id, fid, "finding.rejected", build)


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
    f = _finding(task, fid)
    _need(f, "CONFIRMED", action="attach a regression test")
    target = (s.layout.root / path).resolve()
    if not target.is_file() or s.layout.root.resolve() not in target.parents:
        raise Refused(f"regression test {path} does not exist in the repository", hint="write the test first")
    if ".harness" in target.relative_to(s.layout.root.resolve()).parts:
        raise Refused("a regression test lives in the source tree, not under .harness/")
    rel = target.relative_to(s.layout.root.resolve()).as_posix()
    from harness.gitio import Git

    if Git(s.layout.root).is_ignored(rel):
        raise Refused(f"regression test {rel} is ignored by git: it is not part of the source tree",
                      hint="put the test where git tracks it")
    repro = f["reproduction"] or {}
    command = command_of(argv, repro.get("argv") or repro.get("command"))
    shown = command if isinstance(command, str) else " ".join(command or [])
    if rel not in shown and path not in shown:
        raise Refused(f"the regression command does not run {rel}: {shown!r}",
                      hint=f"harness finding regression {fid} {rel} -- COMMAND-THAT-RUNS-IT")
    fact = run_fact(s, command)
    if fact["outcome"] != "failed":
        raise Refused(f"regression test {path} did not fail ({fact['outcome']}, exit {fact['exit_code']}): "
                      "a regression test must reproduce the bug before the fix", hint="make the test fail on the current code")
    _step(task_id, fid, "finding.regression",
          _requiring("CONFIRMED", action="attach a regression test", data={**fact, "path": rel}))


@finding.command("fixed")
@click.argument("fid", metavar="F-ID")
@task_option
def fixed(fid: str, task_id: str | None) -> None:
    """Mark the fix as written (FIXING → FIXED); `verify` proves it."""
    from harness.gitio import Git

    s = store()
    head = Git(s.layout.root).head()
    _step(task_id, fid, "finding.fixed", _requiring("FIXING", action="mark fixed", data={"commit": head}))


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
    f = _finding(task, fid)
    _need(f, "FIXED", "VERIFIED", action="verify")
    reg = f["regression_test"]
    run = run_fact(s, reg.get("argv") or reg["command"])
    if run["outcome"] != "passed":
        raise Refused(f"regression test {f['regression_test']['path']} still fails ({run['outcome']}, exit {run['exit_code']})",
                      hint="the fix is not done; keep fixing")
    if run["tree"] == reg.get("failed_tree"):
        raise Refused(f"regression test {reg['path']} now passes on the very source tree it failed on: nothing was fixed",
                      hint="a test whose result changes without a code change is flaky or depends on the environment")
    repro = f["reproduction"] or {}
    confirming = run_fact(s, repro.get("argv") or repro["command"]) if repro.get("command") else None
    if confirming is not None and confirming["outcome"] != "passed":
        raise Refused(f"the reproducer that confirmed {fid} still fails ({confirming['outcome']}, exit {confirming['exit_code']}): "
                      f"`{repro['command']}`", hint="the bug is not fixed — a regression test that now passes does not outvote it")
    required = settings.load_gate(s.layout).required_types()
    records = load_valid(s.source, task)
    missing = [t for t in required if t not in records or records[t]["outcome"] != "passed"
               or records[t]["tree"] != run["tree"]]
    if missing:
        raise Refused(f"full-suite evidence is not fresh and passing for: {', '.join(missing)}",
                      hint="re-collect it on this code: " + "; ".join(f"harness evidence {t}" for t in missing))
    full = {"types": required, "tree": run["tree"]}
    _step(task_id, fid, "finding.verified",
          _requiring("FIXED", "VERIFIED", action="verify",
                     data={"regression": run, "full_suite": full, "reproducer": confirming}))
    return 0


@finding.command("close")
@click.argument("fid", metavar="F-ID")
@task_option
def close(fid: str, task_id: str | None) -> None:
    """Close a VERIFIED finding."""
    _step(task_id, fid, "finding.closed", _requiring("VERIFIED", action="close"))


@finding.command("list")
@task_option
@json_option
def list_(task_id: str | None, as_json: bool) -> None:
    """Findings of the task with their status, and the confirmation / regression capture rates."""
    s = store()
    task = s.load(s.current_id(task_id), docs=False)
    items = list(task.proj.findings.values())
    metrics = rules.rates(items)
    if as_json:
        emit_json({"findings": [{"id": f["id"], "status": f["status"], "severity": f["severity"],
                                 "title": f["content"]["title"]} for f in items], "rates": metrics})
        return
    for f in items:
        click.echo(f"{f['id']}  {f['status']:<11} [{f['severity']}] {f['content']['title']}")
    click.echo(f"confirmation rate {metrics['confirmation_rate']}, regression capture rate {metrics['regression_capture_rate']}")
