"""`harness requirement add|set` and `harness invariant add|set`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from harness.cli.common import EVIDENCE_TYPE, store, task_option
from harness.core import ledger

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask

EVIDENCE_REF = EVIDENCE_TYPE


def _next_id(prefix: str, existing: dict[str, Any]) -> str:
    numbers = [int(i.split("-")[1]) for i in existing]
    return f"{prefix}-{max(numbers, default=0) + 1:03d}"


def _add(kind: str, table: str, prefix: str, task_id: str | None, fields: dict[str, str]) -> None:
    s = store()
    tid = s.current_id(task_id)
    created: list[str] = []

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        created.append(_next_id(prefix, getattr(task.proj, table)))
        return [(f"{kind}.added", {"id": created[0], **fields})]

    s.append(tid, [], precheck=precheck)
    click.echo(created[0])


def _set(kind: str, task_id: str | None, item_id: str, status: str, refs: tuple[str, ...],
         tests: tuple[str, ...] = ()) -> None:
    s = store()
    tid = s.current_id(task_id)
    # Replay refuses an unknown item, or `verified` without passing evidence, with its hint.
    data = {"id": item_id, "status": status, "evidence": list(dict.fromkeys(refs))}
    if tests:  # pytest's node id and the report's classname::name name one case: kept in the report's
        from harness.core.cases import case_id

        data["tests"] = list(dict.fromkeys(case_id(t) for t in tests))
    task = s.append(tid, [(f"{kind}.set", data)])
    click.echo(f"{item_id}: {status}" + (f" (evidence: {', '.join(refs)})" if refs else ""))
    if status == "verified" and refs:
        _warn_uncovered_plan(kind, task, item_id, list(dict.fromkeys(refs)))
    from harness.cli.progress import echo_next

    echo_next(s, tid)


def _warn_uncovered_plan(kind: str, task: LoadedTask, item_id: str, cited: list[str]) -> None:
    """Said, not refused: a citation that leaves out a type the contract plans is accepted (the evidence
    may still be coming), but the gate blocks the item until it cites them all."""
    from harness.core.cases import planned
    from harness.gate.facts import contract_plan

    types = planned(contract_plan(task).get(item_id, []))[0]
    missing = [t for t in types if t not in cited]
    if not missing:
        return
    uncollected = [t for t in missing if (task.proj.evidence.get(t) or {}).get("outcome") != "passed"]
    every = " --evidence ".join(dict.fromkeys([*cited, *types]))
    fix = (" ".join(f"`harness evidence {t}`" for t in uncollected) + " first (citing it is refused until it has a "
           "passing run), then cite it as Next: says" if uncollected
           else f"`harness requirement set {item_id} --status verified --evidence {every}`" if kind == "requirement"
           else f"`harness invariant set {item_id} --status verified --evidence {every}`")
    click.echo(f"warning: {item_id}: the contract plans verification by {', '.join(types)}; this cites "
               f"{', '.join(cited)}, so the gate will block it until it also cites {', '.join(missing)}: {fix}",
               err=True)


@click.group()
def requirement() -> None:
    """Requirements (REQ-001…): what the task must do."""


@requirement.command("add")
@click.argument("statement")
@click.option("--priority", type=click.Choice(ledger.PRIORITIES), required=True,
              help="must: the gate needs it verified on fresh evidence; must and should: each one citing no "
                   "evidence counts against gate.yaml's uncovered_allowed; could: neither.")
@click.option("--source", type=click.Choice(ledger.SOURCES), default="user", show_default=True,
              help="Where it comes from: the user's request or the spec.")
@task_option
def requirement_add(statement: str, priority: str, source: str, task_id: str | None) -> None:
    """Add a requirement; prints its id.

    \b
    Example:
      harness requirement add "Interrupted runs resume" --priority must
    """
    _add("requirement", "requirements", "REQ", task_id, {"statement": statement, "priority": priority, "source": source})


@requirement.command("set")
@click.argument("item_id", metavar="REQ-ID")
@click.option("--status", type=click.Choice(ledger.REQUIREMENT_STATUSES), required=True,
              help="verified needs --evidence naming a type that passed (the gate also needs it fresh).")
@click.option("--evidence", "refs", type=EVIDENCE_REF, multiple=True, help="Evidence type that proves it (repeatable).")
@click.option("--tests", "tests", metavar="CASE_ID", multiple=True,
              help="A test case that proves it (repeatable; pytest's node id tests/test_calc.py::test_sub, or the "
                   "JUnit report's classname::name as `evidence/TYPE.cases` lists it): it must pass in the cited run "
                   "and fail without the change (fail_to_pass evidence).")
@task_option
def requirement_set(item_id: str, status: str, refs: tuple[str, ...], tests: tuple[str, ...], task_id: str | None) -> None:
    """Set a requirement's status. `verified` needs passing evidence (the gate also needs it fresh).

    \b
    Example:
      harness requirement set REQ-001 --status verified --evidence unit_test
      harness requirement set REQ-002 --status verified --evidence unit_test \\
          --tests tests.test_calc::test_sub
    """
    _set("requirement", task_id, item_id, status, refs, tests)


@click.group()
def invariant() -> None:
    """Invariants (INV-001…): what must never break."""


@invariant.command("add")
@click.argument("statement")
@click.option("--category", required=True, help="e.g. correctness, concurrency, idempotency, security, recovery.")
@click.option("--severity", type=click.Choice(ledger.SEVERITIES), required=True,
              help="How bad a violation would be; gate.yaml's violated_allowed counts violated invariants.")
@task_option
def invariant_add(statement: str, category: str, severity: str, task_id: str | None) -> None:
    """Add an invariant; prints its id."""
    _add("invariant", "invariants", "INV", task_id, {"statement": statement, "category": category, "severity": severity})


@invariant.command("set")
@click.argument("item_id", metavar="INV-ID")
@click.option("--status", type=click.Choice(ledger.INVARIANT_STATUSES), required=True,
              help="verified needs --evidence naming a type that passed; violated counts against the gate.")
@click.option("--evidence", "refs", type=EVIDENCE_REF, multiple=True, help="Evidence type that proves it (repeatable).")
@task_option
def invariant_set(item_id: str, status: str, refs: tuple[str, ...], task_id: str | None) -> None:
    """Set an invariant's status. `verified` needs passing evidence."""
    _set("invariant", task_id, item_id, status, refs)
