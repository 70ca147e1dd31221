"""`harness contract apply|check`: the task contract (requirements, invariants, verification plan)."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli.common import store, task_option, with_return_code
from harness.errors import Refused

FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def _read(path: Path) -> bytes:
    from harness.store import bounded

    return bounded.read(path, "input", str(path), follow=True) or b""


@click.group()
def contract() -> None:
    """The task contract: acceptance criteria, requirements, invariants, risks, and a
    verification plan (`verified_by`: the evidence types that verify each item, and for a
    requirement the test cases — pytest node ids — that must fail without the change and pass with it)."""


@contract.command("apply")
@click.option("--file", "path", type=FILE, required=True, help="The contract YAML (see templates/contract.example.yaml).")
@task_option
def apply(path: Path, task_id: str | None) -> None:
    """Validate the contract, record its requirements and invariants, and move the task
    CREATED → SPECIFYING → PLANNED. An incomplete contract is refused, naming each gap."""
    from harness import contract as contracts

    doc = contracts.load(_read(path), str(path))
    gaps = contracts.gaps(doc) + contracts.id_mismatches(doc)
    if gaps:
        raise Refused(f"{path}: the contract is incomplete:\n  - " + "\n  - ".join(gaps),
                      hint="`harness contract check --file FILE` lists the same gaps")
    s = store()
    tid = s.current_id(task_id)
    task = s.append(tid, contracts.events(doc))  # replay refuses it unless the task is new
    click.echo(f"{tid}: contract applied — {len(task.proj.requirements)} requirements, "
               f"{len(task.proj.invariants)} invariants; CREATED → SPECIFYING → PLANNED")


@contract.command("check")
@click.option("--file", "path", type=FILE, help="Check this file instead of the task's applied contract.")
@task_option
@with_return_code
def check(path: Path | None, task_id: str | None) -> int:
    """Exit 1 naming every must requirement without a verification plan and every invariant
    without category, severity or verification; exit 0 when complete."""
    from harness import contract as contracts

    if path is not None:
        doc = contracts.load(_read(path), str(path))
        where = str(path)
    else:
        s = store()
        task = s.load(s.current_id(task_id), docs=False)
        if task.proj.contract is None:
            if task.proj.state == "CREATED" and not (task.proj.requirements or task.proj.invariants):
                raise Refused(f"{task.id} has no applied contract", hint="harness contract apply --file CONTRACT.yaml")
            # A contract starts a task: this one was specified item by item, and no contract can be applied now.
            raise Refused(f"{task.id} has no applied contract: its requirements and invariants were added one at a "
                          f"time (a contract is applied only to a new task; this one is {task.proj.state})",
                          hint="`harness status` shows the items and what each still needs; "
                               "`harness contract check --file FILE` checks a contract file")
        doc, where = task.proj.contract["contract"], f"{task.dir}/contract.yaml"
    gaps = contracts.gaps(doc)
    for gap in gaps:
        click.echo(f"{where}: {gap}")
    if not gaps:
        click.echo(f"{where}: complete — every must requirement and invariant has a verification plan")
    return 1 if gaps else 0
