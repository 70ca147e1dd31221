"""`harness review packet`: the markdown a fresh adversarial reviewer starts from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from harness.cli.common import store, task_option
from harness.errors import Refused

if TYPE_CHECKING:
    from harness.store.tasks import TaskStore


@click.group()
def review() -> None:
    """Adversarial review: a packet out, findings back in (`harness finding propose`)."""


@review.command("packet")
@click.option("--base", metavar="REV", help="Diff base (default: the commit the task started from).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of stdout.")
@task_option
def packet(base: str | None, out: Path | None, task_id: str | None) -> None:
    """Write the review packet: contract, requirements, invariants, the diff since the
    task's base commit, the tests added or changed, the finding schema with an example,
    and the reviewer's rules. The implementer's narrative is left out."""
    from harness.gitio.worktree import diff_since
    from harness.usecases.review import packet as build

    s = store()
    task = s.load(s.current_id(task_id), docs=False)
    git = s.git
    rev = base or task.proj.base_commit
    if not rev:
        raise Refused(f"{task.id} started on an unborn branch: there is no base commit to diff against",
                      hint="pass --base REV")
    sha = git.resolve(rev)
    diff, changes = diff_since(git, sha)
    text = build(task, sha, diff, changes, _suite_files(s, {path for _, path in changes}))
    if out is None:
        click.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"review packet written to {out} ({len(changes)} files changed)")


# Files a command names or reads that configure it rather than test: never listed as tests.
CONFIG = ("**/*.toml", "**/*.cfg", "**/*.ini", "**/*.json", "**/*.yaml", "**/*.yml", "**/Makefile", "**/makefile",
          "**/GNUmakefile", "**/justfile", "**/Justfile", "**/.justfile", "**/noxfile.py", "**/conftest.py")


def _suite_files(s: TaskStore, paths: set[str]) -> frozenset[str]:
    """Which of ``paths`` the evidence commands name: a test named `test.py` or `checks.py` is a test
    because a test command runs it, not because of its name. Other files the suite protects
    (pyproject.toml, tox.ini: configuration) are not tests."""
    from harness.core import suite
    from harness.store import settings

    commands = [c.argv for c in settings.load_config(s.layout).commands.values()]
    named = suite.named_files(commands, paths)
    return frozenset(p for p in named if not suite.matches(p, CONFIG))
