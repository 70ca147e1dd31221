"""`harness requirement add|set` and `harness invariant add|set`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from harness.cli.common import EVIDENCE_TYPE, store, task_option
from harness.core import ledger

if TYPE_CHECKING:
    from harness.task.items import UncoveredPlan

EVIDENCE_REF = EVIDENCE_TYPE


def _add(kind: str, task_id: str | None, fields: dict[str, str]) -> None:
    from harness.task.items import add_item

    click.echo(add_item(store(), kind, task_id, fields))


def _set(kind: str, task_id: str | None, item_id: str, status: str, refs: tuple[str, ...],
         tests: tuple[str, ...] = ()) -> None:
    from harness.cli.progress import echo_next
    from harness.task.items import set_item

    s = store()
    done = set_item(s, kind, task_id, item_id, status, list(refs), list(tests))
    click.echo(f"{item_id}: {status}" + (f" (evidence: {', '.join(refs)})" if refs else ""))
    if done.uncovered is not None:
        _warn_uncovered_plan(kind, done.uncovered)
    echo_next(s, done.task.id)


def _warn_uncovered_plan(kind: str, u: UncoveredPlan) -> None:
    every = " --evidence ".join(dict.fromkeys([*u.cited, *u.planned]))
    fix = (" ".join(f"`harness evidence {t}`" for t in u.uncollected) + " first (citing it is refused until it has a "
           "passing run), then cite it as Next: says" if u.uncollected
           else f"`harness requirement set {u.item_id} --status verified --evidence {every}`" if kind == "requirement"
           else f"`harness invariant set {u.item_id} --status verified --evidence {every}`")
    click.echo(f"warning: {u.item_id}: the contract plans verification by {', '.join(u.planned)}; this cites "
               f"{', '.join(u.cited)}, so the gate will block it until it also cites {', '.join(u.missing)}: {fix}",
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
    _add("requirement", task_id, {"statement": statement, "priority": priority, "source": source})


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
    _add("invariant", task_id, {"statement": statement, "category": category, "severity": severity})


@invariant.command("set")
@click.argument("item_id", metavar="INV-ID")
@click.option("--status", type=click.Choice(ledger.INVARIANT_STATUSES), required=True,
              help="verified needs --evidence naming a type that passed; violated counts against the gate.")
@click.option("--evidence", "refs", type=EVIDENCE_REF, multiple=True, help="Evidence type that proves it (repeatable).")
@task_option
def invariant_set(item_id: str, status: str, refs: tuple[str, ...], task_id: str | None) -> None:
    """Set an invariant's status. `verified` needs passing evidence."""
    _set("invariant", task_id, item_id, status, refs)
