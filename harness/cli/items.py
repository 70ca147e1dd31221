"""`harness requirement add|set` and `harness invariant add|set`."""

from __future__ import annotations

import click

from harness.cli.common import store, task_option
from harness.core import ledger
from harness.core.evidence_types import EVIDENCE_TYPES
from harness.errors import Refused

EVIDENCE_REF = click.Choice(EVIDENCE_TYPES)


def _next_id(prefix: str, existing: dict) -> str:
    numbers = [int(i.split("-")[1]) for i in existing]
    return f"{prefix}-{max(numbers, default=0) + 1:03d}"


def _add(kind: str, table: str, prefix: str, task_id: str | None, fields: dict) -> None:
    s = store()
    tid = s.current_id(task_id)
    if not fields["statement"].strip():
        raise Refused(f"a {kind} needs a non-empty statement")
    created: list[str] = []

    def precheck(task):
        created.append(_next_id(prefix, getattr(task.proj, table)))
        return [(f"{kind}.added", {"id": created[0], **fields})]

    s.append(tid, [], precheck=precheck)
    click.echo(created[0])


def _set(kind: str, table: str, task_id: str | None, item_id: str, status: str, refs: tuple[str, ...]) -> None:
    s = store()
    tid = s.current_id(task_id)

    def precheck(task):
        items = getattr(task.proj, table)
        if item_id not in items:
            raise Refused(f"no {kind} {item_id} in {tid}", hint="known: " + (", ".join(items) or "none"))
        if status == "verified":
            if not refs:
                raise Refused(f"{item_id} cannot be verified without evidence",
                              hint=f"collect it with `harness evidence TYPE`, then `--evidence TYPE`")
            for ref in refs:
                record = task.proj.evidence.get(ref)
                if record is None:
                    raise Refused(f"{item_id} cites {ref} evidence, but none was collected",
                                  hint=f"run `harness evidence {ref}` first")
                if record.get("outcome") != "passed":
                    raise Refused(f"{item_id} cites {ref} evidence, whose last run {record.get('outcome')} (exit {record.get('exit_code')})",
                                  hint="only passing evidence verifies; fix the code and re-run it")
        return [(f"{kind}.set", {"id": item_id, "status": status, "evidence": list(dict.fromkeys(refs))})]

    s.append(tid, [], precheck=precheck)
    click.echo(f"{item_id}: {status}" + (f" (evidence: {', '.join(refs)})" if refs else ""))


@click.group()
def requirement() -> None:
    """Requirements (REQ-001…): what the task must do (seed §8)."""


@requirement.command("add")
@click.argument("statement")
@click.option("--priority", type=click.Choice(ledger.PRIORITIES), required=True)
@click.option("--source", type=click.Choice(["user", "spec"]), default="user", show_default=True)
@task_option
def requirement_add(statement: str, priority: str, source: str, task_id: str | None) -> None:
    """Add a requirement; prints its id."""
    _add("requirement", "requirements", "REQ", task_id, {"statement": statement, "priority": priority, "source": source})


@requirement.command("set")
@click.argument("item_id", metavar="REQ-ID")
@click.option("--status", type=click.Choice(ledger.REQUIREMENT_STATUSES), required=True)
@click.option("--evidence", "refs", type=EVIDENCE_REF, multiple=True, help="Evidence type that proves it (repeatable).")
@task_option
def requirement_set(item_id: str, status: str, refs: tuple[str, ...], task_id: str | None) -> None:
    """Set a requirement's status. `verified` needs passing evidence (the gate also needs it fresh)."""
    _set("requirement", "requirements", task_id, item_id, status, refs)


@click.group()
def invariant() -> None:
    """Invariants (INV-001…): what must never break (seed §9)."""


@invariant.command("add")
@click.argument("statement")
@click.option("--category", required=True, help="e.g. correctness, concurrency, idempotency, security, recovery.")
@click.option("--severity", type=click.Choice(ledger.SEVERITIES), required=True)
@task_option
def invariant_add(statement: str, category: str, severity: str, task_id: str | None) -> None:
    """Add an invariant; prints its id."""
    if not category.replace("_", "").isalnum() or not category[:1].isalpha() or category != category.lower():
        raise Refused(f"category {category!r}: use a lower-case word such as correctness or state_machine")
    _add("invariant", "invariants", "INV", task_id, {"statement": statement, "category": category, "severity": severity})


@invariant.command("set")
@click.argument("item_id", metavar="INV-ID")
@click.option("--status", type=click.Choice(ledger.INVARIANT_STATUSES), required=True)
@click.option("--evidence", "refs", type=EVIDENCE_REF, multiple=True, help="Evidence type that proves it (repeatable).")
@task_option
def invariant_set(item_id: str, status: str, refs: tuple[str, ...], task_id: str | None) -> None:
    """Set an invariant's status. `verified` needs passing evidence."""
    _set("invariant", "invariants", task_id, item_id, status, refs)
