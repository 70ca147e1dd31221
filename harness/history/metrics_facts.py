"""Gather what `harness metrics` computes from: every task's ledger at the end of a range,
and every commit of the range that marks a task DONE, judged like the push guard judges it."""

from __future__ import annotations

import json

from harness import paths
from harness.core import metrics
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.tree_source import TreeSource
from harness.history.incoming import check_commit, range_commits
from harness.store import reader, yamlio

TERMINAL = ("DONE", "ESCALATED")


def _task_of(path: str) -> str | None:
    parts = path.split("/")
    return parts[2] if len(parts) > 2 and parts[:2] == [paths.HARNESS, "tasks"] else None


def done_claims(git: Git, commits: list[str]) -> list[metrics.DoneClaim]:
    """Each (commit, task) where the task becomes DONE — by its ledger, or by a hand-edited
    task.yaml — and whether a gate PASS held at that exact commit with nothing else refused.
    A commit that leaves no usable gate.yaml still makes its claim: it has no PASS (read 96's F-0327)."""
    from harness.signatures.trust import Signers

    claims = []
    signers = Signers(lambda: git)  # as the hooks check: git config's signers, if it names any
    for commit in commits:
        report = check_commit(git, commit, signers)
        refused = {_task_of(p.file) for p in report.problems}
        entered = {v.id: v for v in report.verdicts if v.after == "DONE" and v.entered}
        for tid in _newly_done(git, commit, set(entered), {t for t in refused if t} - set(entered)):
            v = entered.get(tid)
            # A problem outside every task (gate.yaml, config.yaml, signers) refuses the whole
            # commit: a PASS computed under a policy the commit was not allowed to set is no PASS.
            passed = (v is not None and v.gate is not None and v.gate.verdict == "PASS"
                      and tid not in refused and None not in refused)
            claims.append(metrics.DoneClaim(commit, tid, passed))
    return claims


def _newly_done(git: Git, commit: str, entered: set[str], suspects: set[str]) -> list[str]:
    """Of ``entered`` (tasks whose ledger the commit moves into DONE) and ``suspects`` (tasks the rules refused
    there), those the commit marks DONE where no parent already marked them so, by ledger or by task.yaml. A
    refused task is read without the rules: a commit that rewrites, forks or breaks the ledger gets no verdict,
    yet marks DONE all the same (read 111's F-0385); a DONE typed into task.yaml is claimed by the commit that
    types it, not again by each later one carrying it, a merge among them (F-0386). Parents are read only for
    a commit that marks one: a DONE claim, or a refusal, never an ordinary commit."""
    if not entered and not suspects:
        return []
    new = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}", rev=commit)
    done = entered | {tid for tid in suspects if _marked_done(new, tid)}
    if not done:
        return []
    parents = [TreeSource(git, git.commit_tree(p), f"commit {p[:12]}", rev=p) for p in git.parents(commit)]
    return sorted(tid for tid in done if not any(_marked_done(old, tid) for old in parents))


def _marked_done(src: TreeSource, tid: str) -> bool:
    """Whether ``src`` holds task ``tid`` as DONE by its ledger or by its task.yaml, each read on its own and
    neither checked against the other: what a reader of either file is told."""
    if not reader.is_task(src, tid):
        return False
    try:
        if reader.load_task(src, tid, docs=False).proj.state == "DONE":
            return True
    except HarnessError:
        pass  # a ledger no reader accepts: its task.yaml is what it says
    rel = f"{reader.TASKS}/{tid}/task.yaml"
    try:
        doc = yamlio.parse(src.read(rel) or b"", rel)
    except HarnessError:
        return False
    task = doc.get("task") if isinstance(doc, dict) else None
    return isinstance(task, dict) and task.get("state") == "DONE"


def lineage(git: Git, commits: list[str]) -> metrics.Lineage:
    """The parents of each of ``commits`` (oldest first, topological) by position, those within the range: what
    "after a DONE" is read from. Each commit's own parents, as stored (pygit2 reads the object: no git process)."""
    at = {commit: n for n, commit in enumerate(commits)}
    return metrics.Lineage(tuple(tuple(at[p] for p in git.parents(c) if p in at) for c in commits))


def _events_of(lines: list[str], etype: str) -> list[dict]:
    """The events of type ``etype``, oldest first, decoding only the lines that can be one. Every
    line of a loaded ledger is canonical JSON (the reader checked it: keys sorted, no spaces, no
    escape JSON does not need), so an event of that type holds ``"type":"<etype>"`` verbatim and a
    line without it is another type. A line with it is decoded and its type checked (the same text
    may sit inside ``data``). So a task's facts cost a scan of its text, not a decode of its life."""
    mark = '"type":' + json.dumps(etype, ensure_ascii=False)
    return [e for e in (json.loads(line) for line in lines if mark in line) if e["type"] == etype]


def carried_from(git: Git, commits: list[str], rel: str, before: str | None) -> list[int]:
    """For each line of the ledger ``rel`` (seq 1, 2, ...): the position in ``commits`` (oldest
    first, topological) of the first commit carrying it; -1 for a line ``before`` (the commit the
    range starts after) already holds. History, not the clock, says what came after what."""
    first: list[int] = [-1] * _lines(git.read_at(before, rel) if before else None)
    last_blob = None
    for position, commit in enumerate(commits):
        try:
            blob = str(git.repo[commit].peel(pygit2.Commit).tree[rel].id)
        except (KeyError, ValueError):
            continue
        if blob == last_blob:
            continue
        last_blob = blob
        first.extend([position] * max(0, _lines(git.read_at(commit, rel)) - len(first)))
    return first


def _lines(raw: bytes | None) -> int:
    return raw.count(b"\n") if raw else 0


def task_facts(git: Git, task: reader.LoadedTask, done_commit: str | None,
               carried: list[int] | None = None) -> metrics.TaskFacts:
    """``carried``: :func:`carried_from` for the task's ledger (none: every event before the range)."""
    def when(e: dict) -> metrics.When:
        seq = int(e["seq"])
        return (carried[seq - 1] if carried and 0 < seq <= len(carried) else -1), seq

    done_at = next((when(e) for e in _events_of(task.lines, "task.transitioned") if e["data"].get("to") == "DONE"),
                   None)
    reproduced: list[dict] | None = None  # decoded when a finding first needs them
    findings = []
    for fid, f in sorted(task.proj.findings.items()):
        confirmed_at = None
        if f["status"] in metrics.EVER_CONFIRMED:
            reproduced = _events_of(task.lines, "finding.reproduced") if reproduced is None else reproduced
            confirmed_at = next((when(e) for e in reproduced
                                 if e["data"].get("id") == fid and e["data"].get("outcome") == "failed"), None)
        findings.append(metrics.FindingFacts(fid, f["status"], (f["content"].get("location") or {}).get("file"),
                                             confirmed_at, bool((f.get("regression_test") or {}).get("path"))))
    changed: frozenset[str] = frozenset()
    base = task.proj.base_commit
    if done_commit and base and git.has_commit(base):
        files, _ = git.changed_paths(git.commit_tree(base), git.commit_tree(done_commit), limit=1_000_000)
        changed = frozenset(p for p in files if not p.startswith(paths.HARNESS + "/"))
    return metrics.TaskFacts(task.id, task.proj.state, f"{task.proj.title}\n{task.proj.description}",
                             when(json.loads(task.lines[0])) if task.lines else None, done_at, changed,
                             tuple(findings))


def _states_at(start: TreeSource, tids: list[str]) -> dict[str, str | None]:
    """The state at ``start`` of each of ``tids`` that is a task there (None: its ledger cannot be read)."""
    out: dict[str, str | None] = {}
    for tid in set(tids) & set(reader.task_ids(start)):
        try:
            out[tid] = reader.load_task(start, tid, docs=False).proj.state
        except HarnessError:
            out[tid] = None
    return out


def gather(git: Git, from_rev: str | None, to_rev: str) -> tuple[list[str], list[metrics.TaskFacts],
                                                                 list[metrics.DoneClaim], list[str], metrics.Lineage]:
    """(commits, tasks, DONE claims, tasks that could not be read, the commits' lineage) for the range."""
    commits = range_commits(git, from_rev, to_rev)
    end_rev = git.resolve(to_rev)
    end = TreeSource(git, git.commit_tree(end_rev), "end of range", rev=end_rev)
    start_rev = git.resolve(from_rev) if from_rev and from_rev.strip("0") else None
    start = TreeSource(git, git.commit_tree(start_rev), "start", rev=start_rev) if start_rev else None
    end_ids = reader.task_ids(end)
    # Read before the walk, not after: the start's ledgers are the ones the range's first commits
    # extend, so the walk finds them validated and checks only what it appends. Read after, they
    # would be validated whole a second time once the walk has moved past them.
    started = _states_at(start, end_ids) if start is not None else {}
    claims = done_claims(git, commits)
    first_done: dict[str, str] = {}
    for claim in claims:
        first_done.setdefault(claim.task, claim.commit)
    tasks, unreadable = [], []
    for tid in end_ids:
        try:
            task = reader.load_task(end, tid, docs=False)
        except HarnessError:
            unreadable.append(tid)
            continue
        if tid in started and started[tid] is None:
            unreadable.append(tid)  # its ledger at the start cannot be read
            continue
        if started.get(tid) in TERMINAL:
            continue  # finished before the range began
        carried = carried_from(git, commits, f"{reader.TASKS}/{tid}/events.jsonl", start.rev if start else None)
        tasks.append(task_facts(git, task, first_done.get(tid), carried))
    return commits, tasks, claims, unreadable, lineage(git, commits)
