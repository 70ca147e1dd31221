"""The next step, judged live for a task, and how every command prints it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from harness.cli.next_text import NEXT_LABEL as NEXT_LABEL
from harness.cli.next_text import next_lines
from harness.core import next_step
from harness.errors import HarnessError

# The next step is judged in the use-case layer; these names stay importable from here.
from harness.gate.steps_now import (  # noqa: F401
    COMMIT_DONE,
    commit_steps,
    done_in_head,
    done_steps,
    loop_counts,
    steps_after,
    steps_for,
    with_next,
)

if TYPE_CHECKING:
    from harness.store.tasks import TaskStore


def print_next(steps: list[next_step.NextStep], err: bool = False) -> None:
    """The `Next:` lines: the recommended command first, then alternatives."""
    for line in next_lines(steps):
        click.echo(line, err=err)


def echo_next(s: TaskStore, tid: str, err: bool = False) -> None:
    """Print the next step after a command; a problem computing it never fails the command that succeeded."""
    print_next(steps_after(s, tid), err=err)


# Commands an agent drives a task with; the git-hook and CI entry points never pay for a next step.
TASK_COMMANDS = frozenset({"transition", "requirement", "invariant", "contract", "finding", "review", "evidence",
                           "gate", "converge"})


def add_next_to_refusal(exc: HarnessError, argv: list[str]) -> None:
    """Give a refusal of a task command the task's next step, unless it already names one."""
    if not argv or argv[0] not in TASK_COMMANDS or "next:" in (exc.hint or ""):
        return
    explicit = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--task"), None)
    try:
        from harness.cli.common import store

        s = store()
        with_next(exc, s, s.current_id(explicit))
    except (HarnessError, OSError):
        return  # no task, no store: the refusal stands on its own
