"""Run a reproducer or a regression test and describe the run as a ledger-ready fact."""

from __future__ import annotations

import shlex
from pathlib import Path

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

    git = ensure_recordable(s.git)
    return run_fact_in(s, command, Site(s.layout.root, None, git.worktree_source_tree(), git.head()), timeout)


class Site:
    """Where a run happens: a folder, the environment it gets (None: ours), and the source tree and
    commit the record names for it."""

    def __init__(self, where: Path, env: dict[str, str] | None, tree: str, head: str | None) -> None:
        self.where, self.env, self.tree, self.head = where, env, tree, head


def run_fact_in(s: TaskStore, command: list[str] | str, site: Site, timeout: float | None = None,
                recorded: list[str] | str | None = None) -> dict:
    """Run ``command`` at ``site`` and describe the run as a ledger-ready fact (redacted as evidence is),
    naming it as ``recorded`` (the command as the user gave it, where ``command`` is its form for the site)."""
    import os

    redactor = redactor_for(settings.load_config(s.layout))
    env = dict(os.environ) if site.env is None else site.env
    program = program_of(runner.checked_argv(command, False, site.where), site.where, env)
    result = runner.run_command(command, cwd=site.where, timeout=timeout, env=site.env)
    named = command if recorded is None else recorded
    shown, argv = shown_command(named, redactor)
    return {"command": shown, "argv": argv if isinstance(named, list) else None,
            "program": program and redactor.redact(program),
            "exit_code": result.exit_code, "outcome": result.outcome, "tree": site.tree, "head": site.head,
            "output_tail": outputcut.tail_text(result.combined, TAIL, redactor)}
