"""The next step for a task, judged live from the gate as it would judge now (nothing is written)."""

from __future__ import annotations

from harness import paths
from harness.core import next_step
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore


def steps_for(s: TaskStore, tid: str, tree: str | None = None) -> list[next_step.NextStep]:
    """What to run next for ``tid``, from the gate as it would judge now (nothing is written).

    ``tree`` is the working tree's source tree when the caller has just measured it (evidence
    measures it after its run): measuring it again would cost three git processes for the same id."""
    from harness.core import gate as core_gate
    from harness.gate import facts
    from harness.gate.loosening import refuse_unapproved_now
    from harness.signatures.trust import Signers
    from harness.store import settings

    task = s.load(tid)
    if task.proj.state in ("DONE", "ESCALATED"):
        return done_steps(s, task, tree)
    folders = [s.layout.task_dir(tid) / sub for sub in ("evidence", "findings")]
    if not any(f.is_dir() and any(f.iterdir()) for f in folders):  # only then is anything judged by tree
        tree = ""
    elif tree is None:
        tree = s.git.worktree_source_tree()
    try:
        policy = settings.load_gate(s.layout)
        refuse_unapproved_now(s, task, policy)
    except HarnessError as exc:  # the gate judges nothing under this gate.yaml: what clears it comes first (F-0402)
        if exc.kind is None:
            raise
        return next_step.out_of_invalid(exc.kind)
    gi = facts.gate_input(s.source, task, policy, tree, Signers(lambda: s.git))
    report = core_gate.evaluate(gi)
    p = task.proj
    steps = next_step.for_gate_input(gi, report.blockers, iteration=p.iteration, max_iterations=p.max_iterations,
                                     gate_pass=p.gate_pass_for(tree, policy.digest)[0],
                                     **loop_counts(task.lines, policy.doc))
    return [next_step.REPLAY_WRITE, *steps] if s.disagreements(task) else steps


COMMIT_DONE = next_step.NextStep(
    'git add -A && git commit -m "TITLE"',
    "the task is DONE but not committed: commit exactly the tree the gate passed before any new work "
    "(a commit with other changes is refused)")


def done_steps(s: TaskStore, task: LoadedTask, tree: str | None = None) -> list[next_step.NextStep]:
    """A terminal task's next steps; a DONE not yet in HEAD is committed first."""
    return [*commit_steps(s, task, tree), *next_step.next_steps(task.proj.state)]


def commit_steps(s: TaskStore, task: LoadedTask, tree: str | None = None) -> list[next_step.NextStep]:
    """What commits a DONE that HEAD does not hold yet ([] when it does, or the task is not DONE):
    the commit must hold exactly the tree the gate passed, so a change made after the gate is set
    aside first (a DONE task takes no new evidence: the change belongs to a new task).
    ``tree``: the working tree's source tree, when the caller has measured it."""
    if task.proj.state != "DONE" or done_in_head(s, task.id, len(task.lines)):
        return []
    first = config_steps(s)
    later = changed_after_gate(s, task, tree)
    if not later:
        return [*first, COMMIT_DONE]
    import shlex


    files, total = later  # every path goes into the command: one left out would be refused again
    names = ", ".join(files[:5]) + (f" (+{total - 5} more)" if total > 5 else "")
    git = s.git
    gated = (task.proj.last_gate or {})["tree"]  # changed_after_gate found one
    head = git.head()
    # The stash puts back HEAD's version: where the gate judged another, that is restored too.
    moved = set(git.changed_paths(git.source_tree(head), gated, limit=1 << 30)[0]) if head else set()
    restore = [p for p in files if p in moved]
    steps = [next_step.NextStep(
        f"git stash push --include-untracked -- {' '.join(shlex.quote(p) for p in files)}",
        f"{names} changed after the gate judged the tree, and the DONE commit must hold exactly that tree: set the "
        "change aside, commit, then `git stash pop` and start a new task for it (`harness task new \"TITLE\"`)")]
    if restore:
        steps.append(next_step.NextStep(
            f"git restore --source={gated} --staged --worktree -- {' '.join(shlex.quote(p) for p in restore)}",
            "bring back the version the gate judged (the stash put back HEAD's)"))
    return [*first, *steps, COMMIT_DONE]


def config_steps(s: TaskStore) -> list[next_step.NextStep]:
    """What clears a change of config.yaml the commit hook refuses with no human's approval, made after a DONE not
    committed yet (read 108's F-0379): approving it, or reverting it (a DONE task takes no new evidence)."""
    from harness.gate.facts import config_blocker
    from harness.signatures.trust import Signers

    blocker = config_blocker(s.source, Signers(lambda: s.git))
    if blocker is None:
        return []
    return [next_step.clearing(blocker)[0],
            next_step.NextStep("git checkout HEAD -- .harness/config.yaml", "or revert the change, then commit")]


def changed_after_gate(s: TaskStore, task: LoadedTask, tree: str | None = None) -> tuple[list[str], int] | None:
    """(the paths, how many) where the source differs from the tree the DONE task's gate passed;
    None when it does not (or no gate tree is known)."""

    gated = (task.proj.last_gate or {}).get("tree")
    if not gated:
        return None
    git = s.git
    tree = tree or git.worktree_source_tree()
    if tree == gated:
        return None
    files, total = git.changed_paths(gated, tree, limit=1 << 30)
    return (files, total) if files else None


def done_in_head(s: TaskStore, tid: str, events: int) -> bool:
    """HEAD holds the task's whole ledger (its DONE included)."""
    from harness.gitio.tree_source import TreeSource

    git = s.git
    head = git.head()
    committed = TreeSource(git, git.commit_tree(head), "HEAD").read(f"{paths.task_folder(tid)}/events.jsonl") if head else None
    return committed is not None and len(committed.splitlines()) >= events


def loop_counts(lines: list[str], policy: dict) -> dict[str, int]:
    """The loop facts the next step needs beyond the gate's: failed verification rounds since
    the task last reached the gate, and the policy's stall window."""
    import json

    from harness.core import converge

    return {"failed_rounds": converge.failed_verification_rounds([json.loads(line) for line in lines]),
            "stalled_iterations": policy.get("convergence", {}).get("stalled_iterations",
                                                                    converge.DEFAULT_STALLED_ITERATIONS)}


def steps_after(s: TaskStore, tid: str, tree: str | None = None) -> list[next_step.NextStep]:
    """The next step after a command that succeeded; a problem judging it never fails that command."""
    try:
        return steps_for(s, tid, tree)
    except HarnessError as exc:
        return [next_step.NextStep("harness status", f"the next step could not be judged: {exc.message}")]


def with_next(exc: HarnessError, s: TaskStore, tid: str | None) -> HarnessError:
    """A refusal that also names the next step (added to its hint)."""
    if tid is None:
        return exc
    try:
        steps = steps_for(s, tid)
    except HarnessError:
        return exc
    if steps:
        nxt = next_step.refusal_hint(steps[0])
        exc.hint = f"{exc.hint}\n  {nxt}" if exc.hint else nxt
    return exc
