"""A task's lifecycle: a transition bound to what the gate judged, and replay's check of the files
against the ledger."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.core import states
from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore


def new_task(s: TaskStore, title: str, description: str, max_iterations: int | None) -> str:
    """Create a task in CREATED (the current one from now) and return its id. More iterations than
    gate.yaml's convergence ceiling are refused: a task may loop less than the policy allows, not more."""
    from harness.errors import Refused
    from harness.store import settings

    gate = settings.load_gate(s.layout)
    ceiling = gate.doc["convergence"]["max_iterations"]
    if max_iterations is not None and max_iterations > ceiling:
        raise Refused(f"--max-iterations {max_iterations} exceeds gate.yaml convergence.max_iterations {ceiling}",
                      hint="a task may loop less than the policy allows, not more")
    # With a protected suite, the change is measured from where it leaves the protected branch.
    suite_spec = gate.suite
    head = s.git.head()
    base = s.git.protected_base(head, suite_spec.get("base")) if suite_spec else head
    if suite_spec and base:
        # A task opened while another is still open keeps the older base: committing a change (a
        # deleted test) and starting a new task must not make that change part of the base.
        base = s.git.oldest_ancestor([base, *(s.load(t, docs=False).proj.base_commit or "" for t in s.open_ids())])
    return s.create(title.strip(), description, max_iterations or ceiling, base)


def gate_binding(s: TaskStore, target_pair: tuple[str, str], tree: str | None = None) -> dict[str, Any]:
    """The source tree and policy a gate-guarded transition is judged against (``tree``: measured already)."""
    if target_pair not in states.NEEDS_GATE_PASS:
        return {}
    from harness.store import settings

    git = s.git
    return {"tree": tree or git.worktree_source_tree(), "policy": settings.load_gate(s.layout).digest,
            "head": git.head()}


def transition_event(s: TaskStore, tid: str, target: str, reason: str | None) -> tuple[str, tuple[str, dict]]:
    """(the state to leave, the event that moves the task to ``target``): replay judges it when it is
    appended (table, LAW 6, reason codes, gate PASS), and a refusal writes nothing."""
    current = s.load(tid, docs=False).proj.state
    tree = None
    if (current, target) in states.NEEDS_GATE_PASS:
        tree = s.git.worktree_source_tree()
        refuse_unless_the_gate_passes_now(s, tid, current, target, tree)
    # The binding is computed for `current`, so the event names it as its starting state.
    return current, ("task.transitioned", {"from": current, "to": target, "reason": reason,
                                           **gate_binding(s, (current, target), tree), **reviewed_code(s, target)})


def refuse_unless_the_gate_passes_now(s: TaskStore, tid: str, current: str, target: str, tree: str) -> None:
    """Refuse a gate-guarded transition while the gate, recomputed now on the source ``tree`` with the configuration as
    it stands, does not pass: what the commit check recomputes on the committed content. The recorded PASS it also
    needs is bound to the source tree without `.harness/`, gate.yaml's digest and HEAD, so a change of config.yaml after
    `gate --advance` left it standing: an unapproved evidence command (read 108's F-0379), and an approved one whose
    evidence came from the old command, or a judged record gone (F-0394), reached a DONE its commit was then refused
    for. Asked once a PASS is recorded for this tree (without one, the state machine's rule refuses). The hint names
    what clears each blocker; an unapproved config.yaml change alone first (its approval or
    revert decides which command the evidence must come from)."""
    from harness.core import gate as core_gate
    from harness.core import next_step
    from harness.core.blockers import CONFIG_UNAPPROVED
    from harness.errors import Refused
    from harness.gate import facts
    from harness.signatures.trust import Signers
    from harness.store import settings

    task = s.load(tid)
    policy = settings.load_gate(s.layout)
    if not task.proj.gate_pass_for(tree, policy.digest)[0]:
        return  # no PASS recorded for this tree: the state machine's rule refuses it, in its own words
    report = core_gate.evaluate(facts.gate_input(s.source, task, policy, tree, Signers(lambda: s.git)))
    if report.verdict == "PASS":
        return
    config = [b for b in report.blockers if b.kind == CONFIG_UNAPPROVED]
    why = config[0].text if config else "the gate, recomputed now, blocks: " + "; ".join(b.text for b in report.blockers)
    steps = [step for b in (config or report.blockers) for step in next_step.clearing(b)]
    if not config:
        steps += [next_step.NextStep("harness gate", "judge the fresh evidence; then transition again")]
    hints = dict.fromkeys(next_step.refusal_hint(step) for step in steps)
    raise Refused(states.invalid(current, target, why).message, hint="\n  ".join(hints) or None)


def reviewed_code(s: TaskStore, target: str) -> dict[str, Any]:
    """The code a review is of, kept when the task enters REVIEWING: a finding proposed while it is reviewed is
    about that code, whatever was changed before it was proposed (F-0343)."""
    if target != "REVIEWING":
        return {}
    from harness.gitio.worktree import ensure_recordable

    git = ensure_recordable(s.git)
    return {"tree": git.worktree_source_tree(), "head": git.head()}


def record_transition(s: TaskStore, tid: str, event: tuple[str, dict]) -> LoadedTask:
    """Append the event :func:`transition_event` made; replay's refusal writes nothing."""
    return s.append(tid, [event])


def rewrite_files(s: TaskStore, tid: str) -> list[str]:
    """`replay --write`: re-render ``tid``'s YAML files from its ledger; the files whose free-form text was lost."""
    return s.rewrite(tid)


def replay_problems(s: TaskStore, tid: str) -> tuple[LoadedTask | None, list[str]]:
    """(task, problems) as replay judges them: disagreements and evidence digest mismatches."""
    from harness.store.evidence_files import check_digests

    try:
        with s.reading():  # the ledger, the files and the evidence as one consistent picture
            task = s.load(tid)
            return task, [d.message() for d in s.disagreements(task)] + check_digests(s.source, task)
    except HarnessError as exc:
        return None, [exc.render()]
