"""The seed §16 view of a task, evaluated live: nothing is written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.core import gate as core_gate
from harness.errors import EXIT_INVALID, HarnessError
from harness.store.tasks import TaskStore

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio import Git

NO_TREE = ""  # no evidence recorded: nothing can be fresh, so the tree is not computed


@dataclass(frozen=True)
class StatusView:
    doc: dict[str, Any]                  # task.yaml's `task:` mapping as the ledger renders it, plus rates
    evidence: dict[str, dict[str, Any]]  # type -> outcome, freshness and what changed since
    live: dict[str, Any]                 # the gate as it would judge right now
    warnings: list[str]                  # files that disagree with the ledger
    pending: dict[str, dict[str, Any]]   # runs prepared and never recorded

    @property
    def exit_code(self) -> int:
        return EXIT_INVALID if self.live["verdict"] == "INVALID_HARNESS_STATE" else 0


def task_status(s: TaskStore, task_id: str | None) -> StatusView:
    from harness.core.findings import rates
    from harness.store import facts, settings

    settings.load_config(s.layout)  # an invalid config.yaml is reported here, not at the next evidence run
    tid = s.current_id(task_id)
    tree, git = NO_TREE, None
    folders = [s.layout.task_dir(tid) / sub for sub in ("evidence", "findings")]
    if any(f.is_dir() and any(f.iterdir()) for f in folders):  # only then is anything judged by tree
        git = s.git
        tree = git.worktree_source_tree()
    with s.reading():  # ledger, files and evidence read as one consistent state
        task = s.load(tid)
        doc = s.render(task)["task.yaml"]["task"]
        warnings = [d.render() for d in s.disagreements(task)]
        try:
            report = core_gate.evaluate(facts.gate_input(s.source, task, settings.load_gate(s.layout), tree))
            live = report.as_dict(tree)
        except HarnessError as exc:
            live = {"verdict": "INVALID_HARNESS_STATE", "blockers": [exc.render()], "checks": [], "notes": []}
    evidence = {t: {**freshness(git, r, tree), "program": live.get("programs", {}).get(t)}
                for t, r in sorted(task.proj.evidence.items())}
    doc["findings"]["rates"] = rates(list(task.proj.findings.values()))
    return StatusView(doc, evidence, live, warnings, dict(task.proj.pending_runs))


def freshness(git: Git | None, record: Mapping[str, Any], tree: str) -> dict[str, Any]:
    fresh = record["tree"] == tree
    out = {"outcome": record["outcome"], "exit_code": record["exit_code"], "tree": record["tree"],
           "freshness": "FRESH" if fresh else "STALE", "changed": [], "changed_total": 0}
    if not fresh and git is not None:
        out["changed"], out["changed_total"] = git.changed_paths(record["tree"], tree, limit=5)
    return out
