"""The success measures (false done, finding confirmation, regression capture, gate bypass,
convergence), computed from facts of the history: a pure function.

Every rate comes with its numerator and denominator (a rate over nothing is None, not 0),
and with the ids behind the numerator, so a figure can be checked by hand.

- false done: DONE tasks later contradicted — a finding confirmed after the DONE on a file
  the task changed, or a task created after it whose title or description names it. "After" is
  by commit history, never by the ledgers' timestamps (a clock behind would hide the contradiction):
  an event is placed by the first commit of the range that carries it, and comes after the DONE only
  when that commit is the DONE's own or descends from it. A commit on a branch forked before the DONE
  never does, whichever way the branches were later merged (their order in a topological listing is
  the merge's parent order, not history: read 111's F-0387). Within one ledger its sequence number
  orders it further; two ledgers changed by the same commit have no order in history, so a
  contradiction committed together with the DONE counts as after it;
- finding confirmation: findings ever confirmed / findings proposed (reviewer noise);
- regression capture: confirmed findings with a regression test / confirmed findings;
- gate bypass: commits that mark a task DONE without a gate PASS at that exact commit,
  over every commit that marks a task DONE (counted from history: skipped hooks count);
- convergence: DONE / (DONE + ESCALATED).
"""

from __future__ import annotations

from dataclasses import dataclass, field

EVER_CONFIRMED = frozenset({"CONFIRMED", "FIXING", "FIXED", "VERIFIED", "CLOSED"})

# Where an event sits in history: (the position, in topological order oldest first, of the first
# commit of the range that carries it, -1 for one already there before the range; its seq in its ledger).
When = tuple[int, int]


@dataclass(frozen=True)
class Lineage:
    """Which commit of the range descends from which: ``parents[n]`` holds the positions of the parents, within
    the range, of the commit at position ``n`` (topological order, oldest first: each is below ``n``)."""

    parents: tuple[tuple[int, ...], ...]
    # The descendants of each commit asked about, found once: one pass over the commits listed after it.
    _below: dict[int, bytearray] = field(default_factory=dict, compare=False, repr=False)

    def descends(self, commit: int, of: int) -> bool:
        """Whether the commit at position ``commit`` is the one at ``of`` or descends from it."""
        if commit <= of:
            return commit == of
        marks = self._below.get(of)
        if marks is None:
            marks = self._below[of] = bytearray(len(self.parents))
            marks[of] = 1
            for n in range(of + 1, len(self.parents)):
                if any(marks[p] for p in self.parents[n]):
                    marks[n] = 1
        return bool(marks[commit])


def after(event: When, done: When, same_ledger: bool, lineage: Lineage | None = None) -> bool:
    """Whether ``event`` came after ``done`` by history (see the module's note on one commit). ``lineage``
    None: the range is one line of history, each commit the child of the one listed before it."""
    if event[0] < 0:
        return False  # already there before the range
    if done[0] < 0:
        return True  # the DONE's commit is before the range: the range's commits are not placed against it
    descends = event[0] >= done[0] if lineage is None else lineage.descends(event[0], done[0])
    return descends and (event > done if same_ledger else True)


@dataclass(frozen=True)
class FindingFacts:
    id: str
    status: str
    file: str | None  # where the reviewer located the defect
    confirmed_at: When | None  # where the failing reproduction sits in history
    has_regression_test: bool


@dataclass(frozen=True)
class TaskFacts:
    id: str
    state: str
    text: str  # title and description
    created_at: When | None
    done_at: When | None  # where CONVERGED → DONE sits in history
    changed_files: frozenset[str] = frozenset()  # what its work changed (base → DONE commit)
    findings: tuple[FindingFacts, ...] = ()


@dataclass(frozen=True)
class DoneClaim:
    """One commit that marks one task DONE, and whether a gate PASS held at that exact commit."""

    commit: str
    task: str
    gate_pass: bool


@dataclass
class Rate:
    numerator: int
    denominator: int
    ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        rate = round(self.numerator / self.denominator, 3) if self.denominator else None
        return {"rate": rate, "numerator": self.numerator, "denominator": self.denominator, "ids": self.ids}


def _contradiction(done: TaskFacts, tasks: list[TaskFacts], lineage: Lineage | None) -> str | None:
    assert done.done_at is not None
    for other in tasks:
        same = other.id == done.id
        if not same and done.id in other.text and other.created_at \
                and after(other.created_at, done.done_at, same, lineage):
            return f"reopened by {other.id}"
        for f in other.findings:
            if f.confirmed_at and f.file and f.file in done.changed_files \
                    and after(f.confirmed_at, done.done_at, same, lineage):
                return f"{other.id} {f.id} confirmed on {f.file}"
    return None


def compute(tasks: list[TaskFacts], claims: list[DoneClaim], lineage: Lineage | None = None) -> dict:
    """``lineage``: the range's commits' parents, what "after a DONE" is read from (None: one line of history)."""
    done = [t for t in tasks if t.state == "DONE" and t.done_at]
    false_done = Rate(0, len(done))
    for t in done:
        why = _contradiction(t, tasks, lineage)
        if why:
            false_done.numerator += 1
            false_done.ids.append(f"{t.id} ({why})")
    findings = [(t.id, f) for t in tasks for f in t.findings]
    confirmed = [(tid, f) for tid, f in findings if f.status in EVER_CONFIRMED]
    captured = [(tid, f) for tid, f in confirmed if f.has_regression_test]
    bypassed = [c for c in claims if not c.gate_pass]
    terminal = [t for t in tasks if t.state in ("DONE", "ESCALATED")]
    return {
        "false_done": false_done.as_dict(),
        "finding_confirmation": Rate(len(confirmed), len(findings), [f"{tid} {f.id}" for tid, f in confirmed]).as_dict(),
        "regression_capture": Rate(len(captured), len(confirmed), [f"{tid} {f.id}" for tid, f in captured]).as_dict(),
        "gate_bypass": Rate(len(bypassed), len(claims), [f"{c.commit[:12]} {c.task}" for c in bypassed]).as_dict(),
        "convergence": Rate(sum(t.state == "DONE" for t in terminal), len(terminal),
                            [t.id for t in terminal if t.state == "DONE"]).as_dict(),
    }
