"""The status view of a task (state, requirements, evidence, gate, next step), evaluated live (nothing is written)."""

from __future__ import annotations

from collections.abc import Mapping

from harness.core import gate as core_gate
from harness.core import next_step
from harness.core.blockers import CONFIG_UNAPPROVED
from harness.core.value_class import dataclass
from harness.errors import EXIT_INVALID, HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    from harness.gitio.git import Git
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore

NO_TREE = ""  # no evidence recorded: nothing can be fresh, so the tree is not computed


@dataclass(frozen=True)
class StatusView:
    doc: dict[str, Any]              # task.yaml's `task` document, with the findings' rates
    evidence: dict[str, dict[str, Any]]  # type -> outcome, freshness, what changed, the program
    live: dict[str, Any]             # the gate as it would judge now
    warnings: list[str]              # where the files disagree with the ledger
    pending: dict[str, Any]          # runs started and never recorded
    finished: dict[str, Any] | None  # where a DONE task was gated
    escalated: str | None            # why an ESCALATED task was escalated
    steps: list[next_step.NextStep]

    @property
    def exit_code(self) -> int:
        return EXIT_INVALID if self.live["verdict"] == "INVALID_HARNESS_STATE" else 0

    def as_dict(self) -> dict[str, Any]:
        """`status --json`: the task's document, the evidence, the gate as it would judge now, the next steps."""
        doc = self.doc
        return {"task": {k: doc[k] for k in ("id", "title", "description")},
                **{k: val for k, val in doc.items() if k not in ("id", "title", "description")},
                "evidence": self.evidence, "pending": self.lost_runs(), "gate_now": self.live, "done": self.finished,
                "escalated": self.escalated, "warnings": self.warnings, "next": next_step.as_data(self.steps)}

    def lost_runs(self) -> list[dict[str, Any]]:
        """The runs that started and never recorded their outcome, in the order they started: what the text shows as
        "TYPE UNKNOWN" (read 114's F-0405: --json left them out, and showed the older record's FRESH pass alone)."""
        return [{"type": run["type"], "run_id": run["run_id"], "started_at": run.get("started_at")}
                for run in self.pending.values()]


@dataclass(frozen=True)
class NoOpenTask:
    """A fresh repository, or a clone where every task is finished: not an error."""
    rows: list[dict[str, Any]]       # id, state, title, head
    steps: list[next_step.NextStep]

    @property
    def exit_code(self) -> int:
        return EXIT_INVALID if any(r["state"] == "INVALID" for r in self.rows) else 0

    def as_dict(self) -> dict[str, Any]:
        return {"task": None, "tasks": self.rows, "next": next_step.as_data(self.steps)}


def _open_counts(gi: core_gate.GateInput) -> dict[str, int]:
    """The open counts the gate counts: a rejection not refuted on this tree is open."""
    from harness.core.gate_checks import open_finding_ids, unrefuted_ids

    return {**{sev: len(open_finding_ids(gi.findings, gi.tree, sev)) for sev in ("critical", "major", "minor")},
            "unrefuted": len(unrefuted_ids(gi.findings, gi.tree))}


def show_status(s: TaskStore, task_id: str | None) -> StatusView | NoOpenTask:
    from harness.gate import facts
    from harness.gate.loosening import refuse_unapproved_now
    from harness.gate.steps_now import commit_steps, loop_counts
    from harness.signatures.trust import Signers
    from harness.store import settings

    settings.load_config(s.layout)  # an invalid config.yaml is reported here, not at the next evidence run
    try:
        tid = s.current_id(task_id)
    except HarnessError:
        if task_id is None and not s.open_ids():  # nothing chosen and nothing open: not an error
            return _no_open_task(s)
        raise
    tree, git = NO_TREE, None
    folders = [s.layout.task_dir(tid) / sub for sub in ("evidence", "findings")]
    done = s.load(tid, docs=False).proj.state == "DONE"
    if done or any(f.is_dir() and any(f.iterdir()) for f in folders):  # only then is anything judged by tree
        git = s.git
        tree = git.worktree_source_tree()
    unapproved: list[str] = []  # the gate's config_unapproved blocker, evaluated now: a DONE's commit is refused for it
    with s.reading():  # ledger, files and evidence read as one consistent state
        task = s.load(tid)
        doc = s.render(task)["task.yaml"]["task"]
        warnings = [d.message() for d in s.disagreements(task)]
        try:
            policy = settings.load_gate(s.layout)
            refuse_unapproved_now(s, task, policy)  # the gate judges nothing then: nor does status (F-0402)
            gi = facts.gate_input(s.source, task, policy, tree, Signers(lambda: s.git))
            report = core_gate.evaluate(gi)
            live = report.as_dict(tree)
            unapproved = [b.text for b in report.blockers if b.kind == CONFIG_UNAPPROVED]
            work = next_step.work_blockers(gi.state, report.blockers)
            live["blockers"] = [b.text for b in work]
            doc["findings"].update(_open_counts(gi))
            p = task.proj
            steps = next_step.for_gate_input(gi, work, iteration=p.iteration,
                                             max_iterations=p.max_iterations,
                                             gate_pass=p.gate_pass_for(tree, policy.digest)[0],
                                             **loop_counts(task.lines, policy.doc))
        except HarnessError as exc:
            live = {"verdict": "INVALID_HARNESS_STATE", "blockers": [exc.render()], "checks": [], "notes": []}
            steps = next_step.out_of_invalid(exc.kind)
    if warnings:
        steps.insert(0, next_step.REPLAY_WRITE)
    waiting = [i for i in s.open_ids() if i != tid] if task.proj.state in ("DONE", "ESCALATED") else []
    if waiting:
        steps.insert(0, next_step.NextStep(f"harness task switch {waiting[0]}",
                                           f"{tid} is finished; {len(waiting)} open task(s) wait"))
    committing = commit_steps(s, task, tree) if done else []
    steps[:0] = committing
    finished = _done_at(git, task, tree, not committing, unapproved) if done and git is not None else None
    escalated = _escalation(task.lines) if task.proj.state == "ESCALATED" else None
    lost = {run["type"] for run in task.proj.pending_runs.values()}  # their type's outcome is UNKNOWN, as the gate says
    evidence = {t: {**_freshness(git, r, tree, t in lost), "program": live.get("programs", {}).get(t)}
                for t, r in sorted(task.proj.evidence.items())}
    from harness.core.findings import rates

    doc["findings"]["rates"] = rates(list(task.proj.findings.values()))
    return StatusView(doc, evidence, live, warnings, task.proj.pending_runs, finished, escalated, steps)


def _freshness(git: Git | None, record: Mapping[str, Any], tree: str, lost: bool = False) -> dict[str, Any]:
    """``record``'s outcome and freshness on ``tree``: UNKNOWN while a later run of its type never recorded one."""
    fresh = record["tree"] == tree
    out = {"outcome": record["outcome"], "exit_code": record["exit_code"], "tree": record["tree"],
           "freshness": "UNKNOWN" if lost else "FRESH" if fresh else "STALE", "changed": [], "changed_total": 0}
    if not fresh and git is not None:
        out["changed"], out["changed_total"] = git.changed_paths(record["tree"], tree, limit=5)
    return out


def _no_open_task(s: TaskStore) -> NoOpenTask:
    rows: list[dict[str, Any]] = []
    git: Git | None = None  # opened for the first DONE task: with none, git's object store is never loaded
    for tid in s.task_ids():
        try:
            task = s.load(tid, docs=False)
            p = task.proj
        except HarnessError as exc:
            rows.append({"id": tid, "state": "INVALID", "title": exc.message, "head": None, "done_commit": None})
            continue
        if p.state == "DONE" and git is None:
            git = s.git
        try:
            rows.append({"id": tid, "state": p.state, "title": p.title, "head": p.head,
                         "done_commit": done_commit(git, task) if git is not None and p.state == "DONE" else None})
        except HarnessError as exc:
            rows.append({"id": tid, "state": "INVALID", "title": exc.message, "head": None, "done_commit": None})
    return NoOpenTask(rows, next_step.NO_TASK)


def _done_at(git: Git, task: LoadedTask, tree: str, committed: bool, unapproved: list[str]) -> dict[str, Any]:
    """Where a DONE task was gated and committed (the oldest commit whose ledger holds its DONE;
    None while uncommitted), whether the source has moved on since the gate judged it, and the change of config.yaml
    its commit is refused for, with no human's approval (read 108's F-0379: status said "gate PASS" over it)."""
    gated = (task.proj.last_gate or {}).get("tree")
    commit = done_commit(git, task) if committed else None
    return {"commit": commit, "committed": committed, "tree": gated, "changed_since": bool(tree) and gated != tree,
            "config_unapproved": None if committed or not unapproved else unapproved[0]}


def done_commit(git: Git, task: LoadedTask) -> str | None:
    """The commit that carries the task's DONE: of the commits in HEAD's history that change its
    ledger, the oldest whose ledger already holds the DONE (ledgers only grow)."""
    import json

    events = [json.loads(line) for line in task.lines]
    upto = next((n for n, e in enumerate(events, start=1) if e["type"] == "task.transitioned"
                 and e["data"].get("to") == "DONE"), None)
    if upto is None:
        return None
    found = None
    rel = f"{task.dir}/events.jsonl"
    for commit in git.commits_changing(rel):  # newest first
        raw = git.read_at(commit, rel)
        if raw is None or len(raw.splitlines()) < upto:
            break
        found = commit
    return found


def _escalation(lines: list[str]) -> str | None:
    """The reason recorded when the task was escalated."""
    import json

    for line in reversed(lines):
        event = json.loads(line)
        if event["type"] == "task.transitioned" and event["data"].get("to") == "ESCALATED":
            return event["data"].get("reason")
    return None
