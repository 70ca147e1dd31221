"""`harness hook gate`: the quality gate as a pre-commit framework hook.

The framework runs hooks on the index — with unstaged changes it stashes them first — so
this judges exactly the tree in the index, the one being committed, and says so. It records
nothing tracked: a verdict in the ledger (or a re-rendered task.yaml) would be a change the
framework reports as "files were modified by this hook", failing every honest run. The last
verdict is kept in `.harness/local/gate-hook.json` (per clone, ignored by git); `harness gate`
run by hand is what records.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from harness.cli.common import emit_json, json_option, with_return_code
from harness.errors import EXIT_INVALID, HarnessError

if TYPE_CHECKING:
    from harness.store.layout import Layout
    from harness.store.source import Source

LAST_VERDICT = "gate-hook.json"


def _task_id(layout: Layout, src: Source, explicit: str | None) -> str:
    from harness.core import states
    from harness.store import reader

    ids = reader.task_ids(src)
    chosen = explicit
    if chosen is None:
        try:
            chosen = (layout.local / "current").read_text("utf-8").strip() or None
        except OSError:
            chosen = None
    if chosen is not None:
        if chosen not in ids:
            raise HarnessError(f"task {chosen} is not in the index: nothing of it is being committed",
                               hint=f"git add .harness/tasks/{chosen}, then run the hook again")
        return chosen
    open_ids = [t for t in ids if reader.load_task(src, t, docs=False).proj.state not in states.TERMINAL]
    if len(open_ids) != 1:
        raise HarnessError(f"{len(open_ids)} open tasks in the index and none chosen",
                           hint="`harness task switch ID` (or pass --task ID)")
    return open_ids[0]


def judge_index(explicit: str | None) -> tuple[str, str, dict]:
    """(task id, source tree, gate report dict) for the tree in the index."""
    from harness.cli.hooks import _git
    from harness.core import gate as core_gate
    from harness.gitio import TreeSource, index_tree
    from harness.guard.validate import APPROVALS, GATE, configured_types, unapproved_loosening
    from harness.store import facts, reader, settings
    from harness.store.layout import open_layout

    layout, git = open_layout(), _git()
    full = index_tree(git)
    src = TreeSource(git, full, "index")
    tree = git.strip_harness(full)
    tid = _task_id(layout, src, explicit)
    raw = src.read(GATE)
    if raw is None:
        raise HarnessError(".harness/gate.yaml is not in the index", hint="git add .harness/gate.yaml")
    policy = settings.parse_gate(raw)
    head = git.head()
    trusted = [TreeSource(git, git.commit_tree(head), "HEAD")] if head else []
    committed = trusted[0].read(GATE) if trusted else None
    loosened, why = unapproved_loosening(committed, policy, src.read(APPROVALS), trusted, configured_types(src))
    if loosened:
        raise HarnessError(".harness/gate.yaml in the index loosens the committed policy without approval: "
                           + "; ".join(loosened) + (f" ({why})" if why else ""),
                           hint="revert it, or have a human run `harness approve gate-change`")
    task = reader.load_task(src, tid)
    report = core_gate.evaluate(facts.gate_input(src, task, policy, tree))
    return tid, tree, report.as_dict(tree) | {"text": core_gate.render_text(report)}


def _keep(verdict: dict) -> None:
    """The last verdict, for the curious, where git never sees it; losing it loses nothing."""
    from harness.store import fsio
    from harness.store.layout import open_layout

    try:
        local = open_layout().local
        local.mkdir(parents=True, exist_ok=True)
        fsio.atomic_write(local / LAST_VERDICT, (json.dumps(verdict, indent=2) + "\n").encode())
    except (OSError, HarnessError):
        pass


@click.command("gate")
@click.argument("filenames", nargs=-1)
@click.option("--task", "task_id", metavar="ID", help="The task to judge (default: the current one).")
@json_option
@with_return_code
def gate_hook(filenames: tuple[str, ...], task_id: str | None, as_json: bool) -> int:
    """The gate on exactly the tree in the index (what is being committed): exit 0 PASS,
    1 BLOCKED, 2 invalid. Records nothing tracked; `harness gate` by hand records."""
    try:
        tid, tree, report = judge_index(task_id)
    except HarnessError as exc:
        if as_json:
            emit_json({"verdict": "INVALID_HARNESS_STATE", "judged": "index", "error": exc.render()})
        else:
            click.echo(f"QUALITY GATE: INVALID_HARNESS_STATE\n\n{exc.render()}")
        return EXIT_INVALID
    text = report.pop("text")
    verdict = {"task": tid, "judged": "index", **report}
    _keep(verdict)
    if as_json:
        emit_json(verdict)
    else:
        click.echo(f"harness-gate: {tid} judged on the tree in the index, source tree {tree[:12]} — exactly what "
                   "is being committed (unstaged changes are not part of it). Nothing recorded; "
                   "`harness gate` records.\n")
        click.echo(text)
    return 0 if report["verdict"] == "PASS" else 1
