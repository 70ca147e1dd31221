"""`harness contract template|apply|check`: the task contract (requirements, invariants, verification plan).

The contract is drafted in `.harness/local/contract.yaml`: git-ignored, and outside the source
tree the evidence is bound to, so writing, editing or deleting the draft stales nothing. Once
applied, the task keeps its own copy (`.harness/tasks/ID/contract.yaml`).
"""

from __future__ import annotations

from pathlib import Path

import click

from harness import paths
from harness.cli.common import store, task_option, with_return_code
from harness.errors import Refused

FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
DRAFT = paths.CONTRACT_DRAFT  # relative to the repository root


@click.group()
def contract() -> None:
    """The task contract: acceptance criteria, requirements, invariants, risks, and a
    verification plan (`verified_by`: the evidence types that verify each item, and for a
    requirement the test cases — pytest node ids — that must fail without the change and pass with it).

    \b
    harness contract template     # an example to start from, in .harness/local/contract.yaml
    harness contract check        # the gaps in that file (or --file FILE)
    harness contract apply        # record it on the task: CREATED → PLANNED

    .harness/local/ is git-ignored and outside the source tree: the draft stales no evidence
    and never shows in the review's diff."""


@contract.command("template")
@click.option("--force", is_flag=True, help="Replace an existing .harness/local/contract.yaml.")
def template(force: bool) -> None:
    """Write an example contract to .harness/local/contract.yaml to edit (refuses to
    replace an existing one without --force)."""
    from harness.task.contract import write_template

    write_template(force)
    click.echo(f"wrote {DRAFT}: edit it, then `harness contract check` and `harness contract apply`")


@contract.command("apply")
@click.option("--file", "path", type=FILE, default=None,
              help=f"The contract YAML (default: {DRAFT}, which `harness contract template` writes).")
@task_option
def apply(path: Path | None, task_id: str | None) -> None:
    """Validate the contract, record its requirements and invariants, and move the task
    CREATED → SPECIFYING → PLANNED. An incomplete contract is refused, naming each gap.

    Write the file in .harness/local/ (the default): a file elsewhere in the repository is
    part of the source tree, so it shows in the review's diff and deleting it stales the evidence."""
    from harness.task import contract as contracts
    path = path if path is not None else contracts.default_file()
    s = store()
    doc = contracts.load(contracts.read_file(path), str(path), s)
    gaps = contracts.gaps(doc, contracts.must_have_tests()) + contracts.id_mismatches(doc)
    if gaps:
        raise Refused(f"{path}: the contract is incomplete:\n  - " + "\n  - ".join(gaps),
                      hint="`harness contract check --file FILE` lists the same gaps")
    tid = s.current_id(task_id)
    task = contracts.apply_contract(s, tid, doc)
    click.echo(f"{tid}: contract applied — {len(task.proj.requirements)} requirements, "
               f"{len(task.proj.invariants)} invariants; CREATED → SPECIFYING → PLANNED")
    rel = contracts.in_source_tree(path, s)
    if rel is not None:
        click.echo(f"note: {rel} is part of the source tree: it shows in the review's diff, and deleting or editing "
                   f"it later stales the evidence. The task keeps its own copy ({task.dir}/contract.yaml); "
                   f"move the file out before collecting evidence (next time, draft it in {DRAFT})", err=True)


@contract.command("check")
@click.option("--file", "path", type=FILE,
              help="Check this file instead of the task's applied contract (or, before one is applied, "
                   f"{DRAFT}).")
@task_option
@with_return_code
def check(path: Path | None, task_id: str | None) -> int:
    """Exit 1 naming every must requirement without a verification plan and every invariant
    without category, severity or verification; exit 0 when complete. Without --file: the
    task's applied contract, or before one is applied the draft in .harness/local/contract.yaml."""
    from harness.task import contract as contracts
    if path is None:
        s = store()
        task = s.load(s.current_id(task_id), docs=False)
        if (task.proj.contract is None and task.proj.state == "CREATED"
                and not (task.proj.requirements or task.proj.invariants) and contracts.draft_path().is_file()):
            path = contracts.draft_path()
    if path is not None:
        doc = contracts.load(contracts.read_file(path), str(path))
        where = DRAFT if path == contracts.draft_path() else str(path)
    else:
        if task.proj.contract is None:
            if task.proj.state == "CREATED" and not (task.proj.requirements or task.proj.invariants):
                raise Refused(f"{task.id} has no applied contract and there is no {DRAFT}",
                              hint="`harness contract template` writes an example there")
            # A contract starts a task: this one was specified item by item, and no contract can be applied now.
            raise Refused(f"{task.id} has no applied contract: its requirements and invariants were added one at a "
                          f"time (a contract is applied only to a new task; this one is {task.proj.state})",
                          hint="`harness status` shows the items and what each still needs; "
                               "`harness contract check --file FILE` checks a contract file")
        doc, where = task.proj.contract["contract"], f"{task.dir}/contract.yaml"
    gaps = contracts.gaps(doc, contracts.must_have_tests())
    for gap in gaps:
        click.echo(f"{where}: {gap}")
    if not gaps:
        click.echo(f"{where}: complete — every must requirement and invariant has a verification plan")
    return 1 if gaps else 0
