"""Gate a task: judge it under the store lock, record the judgement, optionally advance it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.core import gate as core_gate
from harness.core import states
from harness.errors import EXIT_INVALID, HarnessError, Refused
from harness.store.reader import LoadedTask
from harness.store.settings import GatePolicy
from harness.store.tasks import TaskStore

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio import Git


@dataclass(frozen=True)
class GateOutcome:
    task: str | None
    report: core_gate.GateReport | None  # None when the state could not be judged
    tree: str | None
    state: str | None
    recorded: bool                       # a gate.evaluated event was appended
    advanced_to: str | None = None
    error: HarnessError | None = None    # INVALID_HARNESS_STATE: what made the files unjudgeable

    @property
    def exit_code(self) -> int:
        if self.error is not None or self.report is None:
            return EXIT_INVALID
        return 0 if self.report.verdict == "PASS" else 1


def run_gate(open_store: Any, task_id: str | None, advance: bool) -> GateOutcome:
    """Judge ``task_id`` (the current task when None) on the working tree's source.

    Invalid files or history give an outcome carrying the error (exit 2), not an exception;
    a refused ``advance`` (judged after the verdict is recorded) raises
    :class:`~harness.errors.Refused` like any other refusal.
    """
    tid = task_id
    try:
        s: TaskStore = open_store()
        tid = s.current_id(task_id)
        git = s.git
        tree, head = git.worktree_source_tree(), git.head()
        policy = current_policy(s, git)
        state = s.load(tid, docs=False).proj.state
        if state in states.TERMINAL:  # a finished task's ledger is closed: evaluate, record nothing
            report = judge(s, s.load(tid), policy, tree)
        else:
            judged: list[core_gate.GateReport] = []

            def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:  # under the lock, as the ledger is now
                judged.append(judge(s, task, policy, tree))
                return [("gate.evaluated", {"verdict": judged[0].verdict, "tree": tree, "head": head,
                                            "policy": policy.digest, "blockers": judged[0].blockers})]

            s.append(tid, [], precheck=precheck)
            report = judged[0]
    except HarnessError as exc:  # unreadable files, illegal history, a loosened policy: nothing to judge
        return GateOutcome(tid, None, None, None, False, error=exc)
    recorded = state not in states.TERMINAL
    moved = advance_task(s, tid, report.verdict, tree, policy.digest, head) if advance else None
    return GateOutcome(tid, report, tree, state, recorded, moved)


def current_policy(s: TaskStore, git: Git) -> GatePolicy:
    """gate.yaml as it stands — refused while it loosens the committed policy without approval."""
    from harness.gitio import TreeSource
    from harness.guard.validate import APPROVALS, GATE, unapproved_loosening
    from harness.store import settings

    policy = settings.load_gate(s.layout)
    head = git.head()
    committed = TreeSource(git, git.commit_tree(head), "HEAD").read(GATE) if head else None
    approvals = (s.layout.root / APPROVALS).read_bytes() if (s.layout.root / APPROVALS).exists() else None
    from harness.guard import trust

    trust.use_git_config(git)
    trusted = [TreeSource(git, git.commit_tree(head), "HEAD")] if head else []
    loosened, why = unapproved_loosening(committed, policy, approvals, trusted)
    if loosened:
        raise HarnessError(".harness/gate.yaml loosens the committed policy without approval: " + "; ".join(loosened)
                           + (f" ({why})" if why else ""),
                           hint="revert it, or have a human run `harness approve gate-change` at a terminal")
    return policy


def judge(s: TaskStore, task: LoadedTask, policy: GatePolicy, tree: str) -> core_gate.GateReport:
    from harness.store import facts

    edited = s.disagreements(task)
    if edited:  # the files say something the ledger does not: judge nothing
        raise HarnessError("the task files disagree with the ledger (hand-edited?):\n  "
                           + "\n  ".join(d.render() for d in edited),
                           hint="`harness replay` shows it; `harness replay --write` restores the files from the ledger")
    return core_gate.evaluate(facts.gate_input(s.source, task, policy, tree))


def advance_task(s: TaskStore, tid: str, verdict: str, tree: str, policy: str, head: str | None) -> str:
    target = "CONVERGED" if verdict == "PASS" else "BLOCKED"

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        if task.proj.state != "GATING":  # what --advance means, not a rule of the task: replay judges the move
            raise Refused(f"--advance moves a task only from GATING; {tid} is {task.proj.state}")
        return [("task.transitioned", {"from": "GATING", "to": target, "reason": f"gate {verdict}",
                                       "tree": tree, "policy": policy, "head": head})]

    s.append(tid, [], precheck=precheck)
    return target
