"""`harness init`: create .harness/ in a git work tree (idempotent)."""

from __future__ import annotations

import click

from harness import resources
from harness.store import fsio
from harness.store.layout import Layout, find_worktree

GITIGNORE = (b"# per-clone state: lock, redo log, current-task choice, caches\n/local/\n"
             b"# temp files of an interrupted write (swept by the next harness command)\n.*.tmp\n")


@click.command()
def init() -> None:
    """Create .harness/ with config.yaml and gate.yaml (existing files are kept).

    Refuses outside a git work tree: evidence is bound to git trees.
    """
    layout = Layout(find_worktree())
    created = []
    for path, data in (
        (layout.config, resources.template("config.yaml")),
        (layout.gate, resources.template("gate.yaml")),
        (layout.harness / ".gitignore", GITIGNORE),
    ):
        if not path.exists():
            fsio.atomic_write(path, data)
            created.append(layout.rel(path))
    for folder in (layout.tasks, layout.local):
        folder.mkdir(parents=True, exist_ok=True)
    if created:
        click.echo(f"initialized {layout.rel(layout.harness)}/ in {layout.root}: " + ", ".join(created))
        click.echo('next: harness task new "TITLE"')
    else:
        click.echo(f"{layout.rel(layout.harness)}/ already initialized in {layout.root}; nothing changed")
