"""Run a reproducer or a regression test and describe the run as a ledger-ready fact."""

from __future__ import annotations

import shlex

from harness import runner
from harness.evidence import outputcut
from harness.evidence.record import program_of, redactor_for, shown_command
from harness.store import settings
from harness.store.tasks import TaskStore

TAIL = 2000


def command_of(argv: tuple[str, ...], fallback: str | list[str] | None) -> list[str] | str | None:
    if argv:
        return list(argv)
    if isinstance(fallback, str):
        return shlex.split(fallback)
    return list(fallback) if fallback else None


def run_fact(s: TaskStore, command: list[str] | str, timeout: float | None = None) -> dict:
    """Run ``command`` in the repository; the source tree is taken before it starts."""
    from harness.gitio.worktree import ensure_recordable

    redactor = redactor_for(settings.load_config(s.layout))
    git = ensure_recordable(s.git)
    tree, head = git.worktree_source_tree(), git.head()
    import os

    program = program_of(runner.checked_argv(command, False, s.layout.root), s.layout.root, dict(os.environ))
    result = runner.run_command(command, cwd=s.layout.root, timeout=timeout)
    shown, argv = shown_command(command, redactor)
    return {"command": shown, "argv": argv if isinstance(command, list) else None,
            "program": program and redactor.redact(program),
            "exit_code": result.exit_code, "outcome": result.outcome, "tree": tree, "head": head,
            "output_tail": outputcut.tail_text(result.combined, TAIL, redactor)}
