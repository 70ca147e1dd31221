"""Listings: every task with its state, and a task's findings with their rates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.core import findings as finding_rules
from harness.core.records import Finding
from harness.errors import HarnessError
from harness.store.tasks import TaskStore


@dataclass(frozen=True)
class TaskList:
    rows: list[dict[str, Any]]  # id, state, title, current


@dataclass(frozen=True)
class FindingList:
    findings: list[Finding]
    rates: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"findings": [{"id": f["id"], "status": f["status"], "severity": f["severity"],
                              "title": f["content"]["title"]} for f in self.findings], "rates": self.rates}


def list_tasks(s: TaskStore) -> TaskList:
    try:
        current: str | None = s.current_id()
    except HarnessError:  # no current task is a normal state for a listing
        current = None
    rows = []
    for task_id in s.task_ids():
        try:
            proj = s.load(task_id, docs=False).proj
            rows.append({"id": task_id, "state": proj.state, "title": proj.title, "current": task_id == current})
        except HarnessError as exc:  # one broken task must not hide the others
            rows.append({"id": task_id, "state": "INVALID", "title": exc.message, "current": task_id == current})
    return TaskList(rows)


def list_findings(s: TaskStore, task_id: str | None) -> FindingList:
    task = s.load(s.current_id(task_id), docs=False)
    items = list(task.proj.findings.values())
    return FindingList(items, finding_rules.rates(items))


def switch_task(s: TaskStore, task_id: str) -> None:
    """Make ``task_id`` the current task (kept in .harness/local/, never committed)."""
    s.switch(task_id)


def spec_links(s: TaskStore, tid: str, links: dict[str, str | None]) -> dict[str, str | None]:
    """``tid``'s design and plan links after setting ``links`` (none given: as they are)."""
    if links:
        return s.set_spec(tid, links)
    doc = s.load(tid).docs.get("task.yaml") or {}
    return (doc.get("task") or {}).get("spec") or {"design": None, "plan": None}
