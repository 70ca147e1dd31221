"""The gate on exactly the tree in the index (what `harness hook gate` judges): records nothing tracked.

The last verdict is kept in `.harness/local/gate-hook.json` (per clone, ignored by git).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness import paths
from harness.errors import EXIT_INVALID, HarnessError

if TYPE_CHECKING:
    from harness.core.gate import GateReport
    from harness.gitio.git import Git
    from harness.store.layout import Layout
    from harness.store.source import Source


@dataclass(frozen=True)
class IndexVerdict:
    task: str
    tree: str
    report: dict[str, Any]     # the gate report as JSON prints it
    gate: GateReport           # the same report, for the text reporter

    @property
    def exit_code(self) -> int:
        return 0 if self.report["verdict"] == "PASS" else 1

    def as_dict(self) -> dict[str, Any]:
        return self.report


@dataclass(frozen=True)
class IndexNoTask:
    """No task to judge: a fresh `harness init`, or every task finished. Not an invalid state
    (exit 2 says the harness files are broken), and not a PASS (exit 0 would tell a script
    running the manual stage that the gate passed when nothing was judged): exit 1."""
    message: str
    hint: str
    exit_code: int = 1

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": "NO_TASK", "judged": "index", "error": self.message, "next": self.hint}


class _NoTask(HarnessError):
    pass


@dataclass(frozen=True)
class IndexInvalid:
    error: str                 # the rendered error, message and hint
    exit_code: int = EXIT_INVALID

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": "INVALID_HARNESS_STATE", "judged": "index", "error": self.error}


def gate_index(open_git: Callable[[], Git], task_id: str | None) -> IndexVerdict | IndexInvalid | IndexNoTask:
    """Judge the tree in the index for ``task_id`` (default: the current or only open task)."""
    try:
        tid, tree, report = judge_index(open_git, task_id)
    except _NoTask as exc:
        return IndexNoTask(exc.message, exc.hint or "")
    except HarnessError as exc:
        return IndexInvalid(exc.render())
    verdict = {"task": tid, "judged": "index", **report.as_dict(tree)}
    _keep(verdict)
    return IndexVerdict(tid, tree, verdict, report)


LAST_VERDICT = "gate-hook.json"


def _task_id(layout: Layout, src: Source, explicit: str | None) -> str:
    from harness.core import states
    from harness.store import reader

    ids = reader.task_ids(src)
    chosen = explicit
    if chosen is None:
        from harness.store import bounded

        try:  # as TaskStore reads it: bounded, and no usable choice is no choice
            raw = bounded.read(layout.local / "current", "state")
            chosen = (raw.decode("utf-8").strip() or None) if raw is not None else None
        except (HarnessError, UnicodeDecodeError):
            chosen = None
    if chosen is not None:
        if chosen not in ids:
            raise HarnessError(f"task {chosen} is not in the index: nothing of it is being committed",
                               hint=f"git add .harness/tasks/{chosen}, then run the hook again")
        return chosen
    open_ids = [t for t in ids if reader.load_task(src, t, docs=False).proj.state not in states.TERMINAL]
    if not ids:
        raise _NoTask("no task yet: the gate judges a task, and none is in the index", hint='harness task new "TITLE"')
    if not open_ids:
        raise _NoTask(f"no open task in the index: {len(ids)} finished (DONE or ESCALATED), and none is chosen",
                      hint='harness task new "TITLE" for new work, or harness hook gate --task ID to judge a finished one')
    if len(open_ids) != 1:
        raise HarnessError(f"{len(open_ids)} open tasks in the index and none chosen",
                           hint="`harness task switch ID` (or pass --task ID)")
    return open_ids[0]


def judge_index(open_git: Callable[[], Git], explicit: str | None) -> tuple[str, str, GateReport]:
    """(task id, source tree, gate report) for the tree in the index."""
    from harness.core import gate as core_gate
    from harness.gate import facts
    from harness.gate.facts import configured_types
    from harness.gate.loosening import unapproved_loosening
    from harness.gitio.tree_source import TreeSource, index_tree, of_head
    from harness.signatures.trust import Signers
    from harness.store import reader, settings
    from harness.store.layout import open_layout

    layout, git = open_layout(), open_git()
    signers = Signers(lambda: git)  # as the commit hook checks: git config's signers, if it names any
    full = index_tree(git)
    src = TreeSource(git, full, "index", of_index=True)
    tree = git.strip_harness(full)
    tid = _task_id(layout, src, explicit)
    raw = src.read(paths.GATE)
    if raw is None:
        raise HarnessError(".harness/gate.yaml is not in the index", hint="git add .harness/gate.yaml")
    policy = settings.parse_gate(raw)
    trusted = [head] if (head := of_head(git)) else []
    committed = trusted[0].read(paths.GATE) if trusted else None
    loosened, why = unapproved_loosening(committed, policy, src.read(paths.APPROVALS), trusted, signers,
                                         configured_types(src))
    if loosened:
        raise HarnessError(".harness/gate.yaml in the index loosens the committed policy without approval: "
                           + "; ".join(loosened) + (f" ({why})" if why else ""),
                           hint="revert it, or have a human run `harness approve gate-change`")
    task = reader.load_task(src, tid)
    return tid, tree, core_gate.evaluate(facts.gate_input(src, task, policy, tree, signers))


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


