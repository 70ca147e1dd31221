"""`harness hook gate`: the quality gate as a pre-commit framework hook.

The framework runs hooks on the index — with unstaged changes it stashes them first — so
this judges exactly the tree in the index, the one being committed, and says so. It records
nothing tracked: a verdict in the ledger (or a re-rendered task.yaml) would be a change the
framework reports as "files were modified by this hook", failing every honest run. The last
verdict is kept in `.harness/local/gate-hook.json` (per clone, ignored by git); `harness gate`
run by hand is what records.
"""

from __future__ import annotations

import click

from harness.cli.common import json_option, with_return_code


@click.command("gate")
@click.argument("filenames", nargs=-1, expose_value=False)  # what the framework may pass: unread
@click.option("--task", "task_id", metavar="ID", help="The task to judge (default: the current one).")
@json_option
@with_return_code
def gate_hook(task_id: str | None, as_json: bool) -> int:
    """The gate on exactly the tree in the index (what is being committed): exit 0 PASS,
    1 BLOCKED (or no task to judge), 2 invalid. Records nothing tracked; `harness gate` by hand records."""
    from harness.cli.gate_report import report
    from harness.cli.hooks import _git
    from harness.gate.index import gate_index

    result = gate_index(_git, task_id)
    report(result, as_json)
    return result.exit_code
