"""A task's requirements and invariants: add one, set its status, and say what a citation leaves out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.core.value_class import dataclass

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore

# kind -> (the projection's table, the id's prefix)
KINDS = {"requirement": ("requirements", "REQ"), "invariant": ("invariants", "INV")}


@dataclass(frozen=True)
class UncoveredPlan:
    """A `verified` citation that leaves out evidence types the contract plans for the item: said, not
    refused (the evidence may still be coming), but the gate blocks the item until it cites them all."""
    item_id: str
    planned: list[str]       # the types the contract's verified_by names
    cited: list[str]
    missing: list[str]       # planned and not cited
    uncollected: list[str]   # missing and without a passing run yet


@dataclass(frozen=True)
class ItemSet:
    task: LoadedTask
    uncovered: UncoveredPlan | None


def _next_id(prefix: str, existing: dict[str, Any]) -> str:
    numbers = [int(i.split("-")[1]) for i in existing]
    return f"{prefix}-{max(numbers, default=0) + 1:03d}"


def add_item(s: TaskStore, kind: str, task_id: str | None, fields: dict[str, str]) -> str:
    """Append ``kind``.added with the next free id, chosen under the store's lock; returns that id."""
    table, prefix = KINDS[kind]
    tid = s.current_id(task_id)
    created: list[str] = []

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        created.append(_next_id(prefix, getattr(task.proj, table)))
        return [(f"{kind}.added", {"id": created[0], **fields})]

    s.append(tid, [], precheck=precheck)
    return created[0]


def set_item(s: TaskStore, kind: str, task_id: str | None, item_id: str, status: str, refs: list[str],
             tests: list[str]) -> ItemSet:
    """Append ``kind``.set; replay refuses an unknown item, or `verified` without passing evidence."""
    from harness.core.cases import case_id

    data: dict[str, Any] = {"id": item_id, "status": status, "evidence": list(dict.fromkeys(refs))}
    if tests:  # pytest's node id and the report's classname::name name one case: kept in the report's
        data["tests"] = list(dict.fromkeys(case_id(t) for t in tests))
    task = s.append(s.current_id(task_id), [(f"{kind}.set", data)])
    uncovered = uncovered_plan(task, item_id, data["evidence"]) if status == "verified" and refs else None
    return ItemSet(task, uncovered)


def uncovered_plan(task: LoadedTask, item_id: str, cited: list[str]) -> UncoveredPlan | None:
    """What the contract plans for ``item_id`` that ``cited`` leaves out, or None."""
    from harness.core.cases import planned
    from harness.gate.facts import contract_plan

    types = planned(contract_plan(task).get(item_id, []))[0]
    missing = [t for t in types if t not in cited]
    if not missing:
        return None
    uncollected = [t for t in missing if (task.proj.evidence.get(t) or {}).get("outcome") != "passed"]
    return UncoveredPlan(item_id, types, cited, missing, uncollected)
