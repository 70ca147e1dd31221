"""What an agent's session starts with: the current task's facts, put in words for the agent to read."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.agent.judge.agent_policy import TaskFacts


def session_context(facts: TaskFacts | None) -> str:
    """The text a session starts with; empty when there is no task to speak of."""
    if facts is None:
        return ""
    lines = [f"Engineering Harness — current task {facts.task_id}: {facts.title}",
             f"State: {facts.state} (iteration {facts.iteration} / {facts.max_iterations}); "
             f"gate now: {facts.gate_now}"]
    if facts.uncommitted_done:
        lines.append("DONE is not committed yet: the work is unfinished until a commit holds exactly the tree "
                     "the gate passed (start no new work before that).")
    stale = facts.stale_required() if facts.state != "DONE" else []
    if stale:
        changed = sorted({path for t in stale for path in facts.changed.get(t, [])})
        lines.append("Stale evidence (the source changed since it ran): " + ", ".join(stale)
                     + (f" — changed: {', '.join(changed[:5])}" if changed else ""))
    missing = [t for t in facts.required if t not in facts.evidence_trees]
    if missing:
        lines.append("Required evidence not collected yet: " + ", ".join(missing))
    for b in facts.blockers[:5]:
        lines.append(f"Blocking: {b}")
    for command, why in facts.next_steps[:2]:
        lines.append(f"Next: {command} — {why}")
    lines.append("The harness decides completion, not you: `harness status` shows the task; "
                 "never use --no-verify, SKIP=harness-…, or edit .harness/ ledgers and evidence by hand.")
    return "\n".join(lines)
