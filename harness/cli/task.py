"""`harness task new|list|switch|spec`."""

from __future__ import annotations

import click

from harness.cli.common import json_option, store, task_option


@click.group()
def task() -> None:
    """Create, list and switch tasks, and link their design and plan. The current task is
    kept untracked in .harness/local/."""


@task.command("new")
@click.argument("title")
@click.option("--description", default="", help="What the task is about.")
@click.option("--max-iterations", type=click.IntRange(1, 100), default=None,
              help="Gate→BLOCKED loops before only ESCALATED is allowed (default and ceiling: gate.yaml).")
def new(title: str, description: str, max_iterations: int | None) -> None:
    """Create a task in CREATED and make it the current one; prints its id (stdout) and
    the next step (stderr)."""
    from harness.task.transitions import new_task

    s = store()
    task_id = new_task(s, title, description, max_iterations)
    click.echo(task_id)
    from harness.cli.progress import echo_next

    echo_next(s, task_id, err=True)


@task.command("list")
@json_option
def list_(as_json: bool) -> None:
    """List every task with its state; `*` marks the current one."""
    from harness.cli.task_report import report
    from harness.task.listing import list_tasks

    report(list_tasks(store()), as_json)


@task.command("switch")
@click.argument("task_id", metavar="ID")
def switch(task_id: str) -> None:
    """Make ID the current task (kept in .harness/local/, never committed)."""
    from harness.task.listing import switch_task

    switch_task(store(), task_id)
    click.echo(f"current task: {task_id}")


@task.command("spec")
@click.option("--design", metavar="PATH", help="The design document (a path in the repository, or a URL).")
@click.option("--plan", metavar="PATH", help="The implementation plan (a path in the repository, or a URL).")
@task_option
def spec(design: str | None, plan: str | None, task_id: str | None) -> None:
    """Link the task's design document and implementation plan (`spec` in task.yaml); an
    empty value clears a link. With neither option, print the links."""
    from harness.task.listing import spec_links

    s = store()
    tid = s.current_id(task_id)
    links = {k: (v.strip() or None) for k, v in (("design", design), ("plan", plan)) if v is not None}
    current = spec_links(s, tid, links)
    for key in ("design", "plan"):
        click.echo(f"{tid}: spec.{key}: {current.get(key) or '(none)'}")
