"""Run a real command and record it as evidence for a task."""

from __future__ import annotations

from harness.core import next_step
from harness.core.value_class import dataclass
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    from harness.store.tasks import TaskStore


@dataclass(frozen=True)
class EvidenceRecorded:
    etype: str
    record: dict[str, Any]      # the evidence record as written
    exit_code: int              # the command's own (127 not found, 124 timeout, 130 interrupted)
    steps: list[next_step.NextStep]


def record_evidence(s: TaskStore, task_id: str | None, etype: str, argv: tuple[str, ...], junit: str | None,
                    timeout: float | None, shell: bool) -> EvidenceRecorded:
    """Run ``argv`` (or the configured command for ``etype``), streaming its output, and record the outcome."""
    from harness.evidence.record import collect, plan
    from harness.gate.steps_now import steps_after
    from harness.store import settings

    tid = s.current_id(task_id)
    if etype in ("pass_to_pass", "fail_to_pass"):
        from harness.evidence import pass_to_pass

        if argv or shell or junit or timeout:
            raise HarnessError(f"{etype} runs the configured test command itself: give no command, --junit, "
                               "--shell or --timeout (config.yaml's test command carries them)")
        record, code = (pass_to_pass.run if etype == "pass_to_pass" else pass_to_pass.run_fail_to_pass)(s, tid)
    else:
        record, code = collect(s, tid, plan(settings.load_config(s.layout), etype, argv, shell, junit, timeout))
    # The source tree as the run left it, measured by collect just now (tree_after is set only
    # when the run changed it).
    return EvidenceRecorded(etype, record, code, steps_after(s, tid, record["tree_after"] or record["tree"]))
