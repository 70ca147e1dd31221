"""`harness metrics` computed the way it was before it became incremental: nothing remembered
between ledgers (every ledger validated whole, every blob read from git), every event of a
task's ledger decoded, the start's tasks loaded after the walk. What the incremental path must
equal, for any history."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from unittest import mock

from harness.agent.stopstate import tally
from harness.core import metrics
from harness.errors import HarnessError
from harness.gitio import blob_memo
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history import metrics_facts
from harness.history.incoming import range_commits
from harness.history.metrics import Metrics
from harness.store import commit_docs, ledger_memo, reader

TERMINAL = ("DONE", "ESCALATED")


@contextlib.contextmanager
def nothing_remembered() -> Iterator[None]:
    """Every ledger validated whole, every blob inflated and every finding file read, as if no memo existed."""
    ledger_memo.forget()
    blob_memo.forget()
    commit_docs.forget()
    with mock.patch.object(ledger_memo, "exact", lambda *args: None), \
            mock.patch.object(ledger_memo, "longest_prefix", lambda *args: None), \
            mock.patch.object(blob_memo, "kept", lambda oid: None), \
            mock.patch.object(commit_docs, "agreeing", lambda *args: None):
        try:
            yield
        finally:
            ledger_memo.forget()
            blob_memo.forget()
            commit_docs.forget()


def task_facts(git: Git, task: reader.LoadedTask, done_commit: str | None,
               carried: list[int] | None = None) -> metrics.TaskFacts:
    """A task's facts from every event of its ledger, decoded."""
    events = [json.loads(line) for line in task.lines]

    def when(e: dict) -> metrics.When:
        seq = int(e["seq"])
        return (carried[seq - 1] if carried and 0 < seq <= len(carried) else -1), seq

    done_at = next((when(e) for e in events if e["type"] == "task.transitioned" and e["data"].get("to") == "DONE"),
                   None)
    findings = []
    for fid, f in sorted(task.proj.findings.items()):
        confirmed_at = None
        if f["status"] in metrics.EVER_CONFIRMED:
            confirmed_at = next((when(e) for e in events if e["type"] == "finding.reproduced"
                                 and e["data"].get("id") == fid and e["data"].get("outcome") == "failed"), None)
        findings.append(metrics.FindingFacts(fid, f["status"], (f["content"].get("location") or {}).get("file"),
                                             confirmed_at, bool((f.get("regression_test") or {}).get("path"))))
    changed: frozenset[str] = frozenset()
    base = task.proj.base_commit
    if done_commit and base and git.has_commit(base):
        files, _ = git.changed_paths(git.commit_tree(base), git.commit_tree(done_commit), limit=1_000_000)
        changed = frozenset(p for p in files if not p.startswith(".harness/"))
    return metrics.TaskFacts(task.id, task.proj.state, f"{task.proj.title}\n{task.proj.description}",
                             when(events[0]) if events else None, done_at, changed, tuple(findings))


def gather(git: Git, from_rev: str | None, to_rev: str) -> tuple[list[str], list[metrics.TaskFacts],
                                                                 list[metrics.DoneClaim], list[str], metrics.Lineage]:
    commits = range_commits(git, from_rev, to_rev)
    claims = metrics_facts.done_claims(git, commits)
    first_done: dict[str, str] = {}
    for claim in claims:
        first_done.setdefault(claim.task, claim.commit)
    end = TreeSource(git, git.commit_tree(git.resolve(to_rev)), "end of range")
    start_rev = git.resolve(from_rev) if from_rev and from_rev.strip("0") else None
    start = TreeSource(git, git.commit_tree(start_rev), "start", rev=start_rev) if start_rev else None
    tasks, unreadable = [], []
    for tid in reader.task_ids(end):
        try:
            task = reader.load_task(end, tid, docs=False)
            if start is not None and tid in reader.task_ids(start) \
                    and reader.load_task(start, tid, docs=False).proj.state in TERMINAL:
                continue
        except HarnessError:
            unreadable.append(tid)
            continue
        carried = metrics_facts.carried_from(git, commits, f"{reader.TASKS}/{tid}/events.jsonl",
                                             start.rev if start else None)
        tasks.append(task_facts(git, task, first_done.get(tid), carried))
    return commits, tasks, claims, unreadable, metrics_facts.lineage(git, commits)


def measure(git: Git, from_rev: str | None, to_rev: str) -> Metrics:
    """:func:`harness.history.metrics.measure`, from scratch."""
    with nothing_remembered():
        commits, tasks, claims, unreadable, lineage = gather(git, from_rev, to_rev)
    released = tally(git.root).get("stop.released", {"total": 0, "by_host": {}})
    return Metrics(from_rev, to_rev, len(commits), len(tasks), unreadable, metrics.compute(tasks, claims, lineage),
                   released)
