"""`harness review packet`: the markdown a fresh adversarial reviewer starts from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from harness.cli.common import store, task_option

if TYPE_CHECKING:
    pass


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
    from harness.findings.review import task_packet

    text, changed = task_packet(store(), task_id, base)
    if out is None:
        click.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"review packet written to {out} ({changed} files changed)")
