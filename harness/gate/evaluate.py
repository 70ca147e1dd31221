"""The quality gate for the working tree, recorded in the ledger, and `--advance` out of GATING."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.core import gate as core_gate
from harness.core import next_step, states
from harness.core.blockers import evaluated_fields
from harness.errors import EXIT_INVALID, HarnessError, Refused
from harness.signatures.trust import Signers

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio.git import Git
    from harness.store.reader import LoadedTask
    from harness.store.settings import GatePolicy
    from harness.store.tasks import TaskStore


@dataclass(frozen=True)
class GateOutcome:
    """A verdict: recorded as `gate.evaluated` unless the task is finished."""
    task: str
    report: core_gate.GateReport
    tree: str
    state: str                 # the task's state when it was judged
    recorded: bool
    moved: str | None          # where --advance moved the task
    steps: list[next_step.NextStep]

    @property
    def exit_code(self) -> int:
        return 0 if self.report.verdict == "PASS" else 1

    def as_dict(self) -> dict[str, Any]:
        return {"task": self.task, **self.report.as_dict(self.tree), "recorded": self.recorded,
                "advanced_to": self.moved, "next": next_step.as_data(self.steps)}


@dataclass(frozen=True)
class GateInvalid:
    """No verdict: a file of the chosen task or the policy is invalid (INVALID_HARNESS_STATE)."""
    task: str
    error: str                 # the rendered error, message and hint
    steps: list[next_step.NextStep]
    exit_code: int = EXIT_INVALID

    def as_dict(self) -> dict[str, Any]:
        return {"task": self.task, "verdict": "INVALID_HARNESS_STATE", "error": self.error,
                "next": next_step.as_data(self.steps)}


def run_gate(open_store: Callable[[], TaskStore], task_id: str | None, advance: bool) -> GateOutcome | GateInvalid:
    """Judge the current source tree; with ``advance``, move a GATING task to CONVERGED or BLOCKED."""
    report: core_gate.GateReport | None = None
    gi: core_gate.GateInput | None = None
    # Before a task is chosen there is no state to judge (no repository, no task yet, several open, an
    # unknown id): that fails as every command fails, its hint naming the way out, not as a verdict.
    s = open_store()
    tid = s.current_id(task_id)
    try:
        git = s.git
        signers = Signers(lambda: git)  # whose approvals count: the signers git config names, else the repository's
        tree, head = git.worktree_source_tree(), git.head()
        policy = checked_policy(s, git, signers)
        state = s.load(tid, docs=False).proj.state
        if state in states.TERMINAL:  # a finished task's ledger is closed: evaluate, record nothing
            report, gi = judge(s, s.load(tid), policy, tree, signers)
        else:
            def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:  # under the lock, as it is now
                nonlocal report, gi
                judged, gi = judge(s, task, policy, tree, signers)
                report = judged
                return [("gate.evaluated", {"verdict": judged.verdict, "tree": tree, "head": head,
                                            "policy": policy.digest, **evaluated_fields(judged.blockers)})]

            s.append(tid, [], precheck=precheck)
    except HarnessError as exc:
        return GateInvalid(tid, exc.render(), next_step.out_of_invalid(exc.kind))
    assert report is not None and gi is not None  # both paths above judged, or raised
    moved = _advance(s, tid, report.verdict, tree, policy.digest, head) if advance else None
    return GateOutcome(tid, report, tree, state, state not in states.TERMINAL, moved, _next(s, tid, gi, report))


def _next(s: TaskStore, tid: str, gi: core_gate.GateInput, report: core_gate.GateReport) -> list[next_step.NextStep]:
    """The next step after this evaluation (and after the move --advance made)."""
    from harness.core.value_class import replace
    from harness.gate.steps_now import loop_counts

    task = s.load(tid, docs=False)
    p = task.proj
    g = replace(gi, state=p.state)
    passed = report.verdict == "PASS"
    return next_step.for_gate_input(g, report.blockers, iteration=p.iteration, max_iterations=p.max_iterations,
                                    gate_pass=passed and p.last_gate is not None and p.last_gate.get("tree") == gi.tree,
                                    **loop_counts(task.lines, gi.policy))


def checked_policy(s: TaskStore, git: Git, signers: Signers) -> GatePolicy:
    """gate.yaml as it stands — refused while it loosens the committed policy without approval."""
    from harness.gate.loosening import refuse_unapproved
    from harness.gitio.tree_source import of_head
    from harness.store import settings

    policy = settings.load_gate(s.layout)
    refuse_unapproved(s.source, of_head(git), policy, signers)
    return policy


def judge(s: TaskStore, task: LoadedTask, policy: GatePolicy, tree: str,
          signers: Signers) -> tuple[core_gate.GateReport, core_gate.GateInput]:
    from harness.gate import facts

    edited = s.disagreements(task)
    if edited:  # the files say something the ledger does not: judge nothing
        raise HarnessError("the task files disagree with the ledger (hand-edited?):\n  "
                           + "\n  ".join(d.message() for d in edited),
                           hint="`harness replay` shows it; `harness replay --write` restores the files from the ledger")
    gi = facts.gate_input(s.source, task, policy, tree, signers)
    return core_gate.evaluate(gi), gi


def _advance(s: TaskStore, tid: str, verdict: str, tree: str, policy: str, head: str | None) -> str | None:
    target = "CONVERGED" if verdict == "PASS" else "BLOCKED"

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        if task.proj.state != "GATING":  # what --advance means, not a rule of the task: replay judges the move
            raise Refused(f"--advance moves a task only from GATING; {tid} is {task.proj.state}")
        return [("task.transitioned", {"from": "GATING", "to": target, "reason": f"gate {verdict}",
                                       "tree": tree, "policy": policy, "head": head})]

    s.append(tid, [], precheck=precheck)
    return target
