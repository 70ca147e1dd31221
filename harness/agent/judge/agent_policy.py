"""What the agent hooks decide at session start and at stop, as pure functions of the task.

The stop decision never reads the assistant's words: only the task's state, the trees its
required evidence was collected on, the tree now, and the gate evaluated now. It keeps its
own count of consecutive blocks per session and tree so that no host — Codex has no cap of
its own — can loop forever on a stop the agent cannot satisfy.
"""

from __future__ import annotations

from harness.core.value_class import dataclass, field, replace

# The task is being worked on: stopping now with stale proof is stopping on a false "done".
IN_FLIGHT = frozenset({"IMPLEMENTING", "VERIFYING", "FIXING", "REVIEWING", "REPRODUCING", "GATING", "CONVERGED"})
DEFAULT_BLOCK_LIMIT = 3


@dataclass(frozen=True)
class TaskFacts:
    task_id: str
    title: str
    state: str
    iteration: int
    max_iterations: int
    required: tuple[str, ...]                         # evidence types gate.yaml requires
    evidence_trees: dict[str, str]                    # type -> source tree its last record ran on
    tree: str                                         # the source tree now ("" when nothing needed it)
    gate_now: str                                     # PASS / BLOCKED / INVALID_HARNESS_STATE
    blockers: tuple[str, ...] = ()
    changed: dict[str, list[str]] = field(default_factory=dict)   # type -> paths changed since
    next_steps: tuple[tuple[str, str], ...] = ()      # (command, why) from harness.core.next_step, first recommended
    uncommitted_done: bool = False                    # DONE, and HEAD does not hold the DONE yet

    def stale_required(self) -> list[str]:
        return [t for t in self.required if t in self.evidence_trees and self.evidence_trees[t] != self.tree]


@dataclass(frozen=True)
class StopVerdict:
    block: bool
    reason: str = ""
    message: str = ""      # shown to the user when the stop goes through anyway
    once: bool = False     # blocks once per session and tree, whatever the configured limit


def stop_verdict(facts: TaskFacts | None) -> StopVerdict:
    """Block a task in flight whose proof no longer holds for the code as it is now, and, once,
    a DONE that is not committed (the commit is the user's to make, but it must not be forgotten)."""
    if facts is not None and facts.uncommitted_done:
        command = facts.next_steps[0][0] if facts.next_steps else 'git add -A && git commit -m "TITLE"'
        why = facts.next_steps[0][1] if facts.next_steps else "commit exactly the tree the gate passed"
        return StopVerdict(True, (
            f"Task {facts.task_id} is DONE but not committed: the DONE counts only in a commit that holds exactly "
            f"the tree the gate passed. Next: `{command}` — {why}. Commit it (or tell the user it is left to "
            "commit) before stopping; `harness status` shows the rest."), once=True)
    if facts is None or facts.state not in IN_FLIGHT:
        return StopVerdict(False)
    stale = facts.stale_required()
    if stale:
        first = stale[0]
        changed = facts.changed.get(first) or []
        since = f" (changed since: {', '.join(changed[:3])})" if changed else ""
        return StopVerdict(True, (
            f"Task {facts.task_id} is {facts.state} and the source changed since its required "
            f"{', '.join(stale)} evidence{since}. Run `harness evidence {first}` "
            f"(and any other stale type) before stopping; `harness status` shows the rest."))
    if facts.state == "CONVERGED" and facts.gate_now != "PASS":
        why = f": {facts.blockers[0]}" if facts.blockers else ""
        return StopVerdict(True, (
            f"Task {facts.task_id} is CONVERGED, but the gate does not pass on the current source tree{why}. "
            "Run `harness gate` and fix what it names before stopping."))
    return StopVerdict(False)


def lock_verdict(why: str) -> StopVerdict:
    """The store's lock held past the hook's wait (``why`` names its holder): the task cannot be read, so the stop is
    blocked, counted per session and source tree as any other block (apply_cap). Not an internal error, blocked once
    per session: an agent holding the lock on purpose would then stop unchecked on every later tree (read 108's
    F-0380)."""
    return StopVerdict(True, (
        f"The harness stop check could not read the task: {why}. It cannot confirm the task's evidence is fresh for "
        "the code as it is now: let that command finish (or stop it), then run `harness status` and check the task "
        "before stopping."))


@dataclass(frozen=True)
class BlockCount:
    session: str
    tree: str
    blocks: int = 0
    released: bool = False
    error_blocked: bool = False


def apply_cap(verdict: StopVerdict, prior: BlockCount | None, session: str, tree: str,
              limit: int) -> tuple[StopVerdict, BlockCount | None, bool]:
    """(verdict to answer, count to keep, whether this answer is a new release).

    A stop that need not be blocked resets the count. The limit counts consecutive blocks
    for one session on one source tree; after it the agent may stop (a release), and the
    release is reported once."""
    errored = bool(prior and prior.session == session and prior.error_blocked)
    if not verdict.block:
        return verdict, (BlockCount(session, tree, error_blocked=True) if errored else None), False
    same = prior is not None and prior.session == session and prior.tree == tree
    blocks = prior.blocks if same and prior else 0
    if blocks >= limit:
        already = bool(same and prior and prior.released)
        count = BlockCount(session, tree, blocks, True, errored)
        return (StopVerdict(False, message=(
            f"harness: let the agent stop after {blocks} consecutive blocks on this source tree "
            f"(limit {limit}); the task still needs: {verdict.reason}")), count, not already)
    return verdict, BlockCount(session, tree, blocks + 1, False, errored), False


def error_verdict(prior: BlockCount | None, session: str, error: str) -> tuple[StopVerdict, BlockCount]:
    """An internal error blocks the stop once per session, then lets it through with the error."""
    if prior is not None and prior.session == session and prior.error_blocked:
        return StopVerdict(False, message=f"harness: the stop check failed again ({error}); not blocking twice"), prior
    count = replace(prior, error_blocked=True) if prior and prior.session == session else BlockCount(
        session, "", error_blocked=True)
    return StopVerdict(True, (
        f"The harness stop check failed ({error}), so it could not confirm the task's evidence is fresh. "
        "Run `harness status` and check the task before stopping; this check blocks only once.")), count
