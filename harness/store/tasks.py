"""The per-task store: ledger, projections, and the choice of current task.

Every change is: take the lock, finish any interrupted write, re-read and verify the
ledger, apply the new events through the replay rules, render the projections, and
replace all files as one unit. A refused event writes nothing.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from harness.core import ledger, projection, states
from harness.errors import HarnessError, Refused
from harness.store import fsio, validate, yamlio
from harness.store.layout import TASK_ID, Layout

TASK_FILES = ("task.yaml", "requirements.yaml", "invariants.yaml")
SCHEMA_OF = {"task.yaml": "task", "requirements.yaml": "requirement", "invariants.yaml": "invariant"}


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def new_task_id(today: datetime | None = None) -> str:
    # Date for humans, 24 random bits so two branches from one base never collide.
    return f"TASK-{(today or datetime.now(timezone.utc)):%Y%m%d}-{secrets.token_hex(3)}"


@dataclass
class LoadedTask:
    id: str
    dir: Path
    proj: ledger.Projection
    lines: list[str]
    docs: dict[str, dict | None]  # file name -> parsed YAML (None when absent)


class TaskStore:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        validate.use_cache(layout.local / "valid")

    # -- reading ---------------------------------------------------------------
    def task_ids(self) -> list[str]:
        if not self.layout.tasks.is_dir():
            return []
        return sorted(p.name for p in self.layout.tasks.iterdir() if TASK_ID.match(p.name))

    def recover(self) -> None:
        """Roll forward a write a killed process left half done."""
        journal = self.layout.local / "journal"
        if journal.exists():
            with fsio.locked(self.layout.local / "lock"):
                fsio.roll_forward(journal)

    def load(self, task_id: str, docs: bool = True) -> LoadedTask:
        folder = self.layout.task_dir(task_id)
        name = self.layout.rel(folder / "events.jsonl")
        try:
            raw = (folder / "events.jsonl").read_bytes()
        except FileNotFoundError:
            raise HarnessError(f"{name}: missing — task {task_id} has no ledger") from None
        try:
            parsed = ledger.parse_lines(raw, name)
            proj = ledger.replay([e for _, e in parsed], name)
        except ledger.LedgerProblem as exc:
            raise HarnessError(str(exc), hint="the ledger is append-only; restore it from git (`git checkout -- FILE`)") from None
        if not parsed:
            raise HarnessError(f"{name}: empty ledger")
        loaded = {f: self._read_doc(folder / f) for f in TASK_FILES} if docs else {}
        return LoadedTask(task_id, folder, proj, [line for line, _ in parsed], loaded)

    def _read_doc(self, path: Path) -> dict | None:
        if not path.exists():
            return None
        raw = path.read_bytes()
        name = self.layout.rel(path)
        doc = yamlio.parse(raw, name) if raw.strip() else None
        validate.check(doc, SCHEMA_OF[path.name], name, raw)
        return doc

    def render(self, task: LoadedTask) -> dict[str, dict]:
        """The three YAML documents as the ledger says, keeping free-form text from the files."""
        p, docs = task.proj, task.docs
        overrides, spec = projection.freeform_of_task(docs.get("task.yaml") or {})
        tdoc = projection.task_doc(p, spec)
        tdoc["task"].update(overrides)
        return {
            "task.yaml": tdoc,
            "requirements.yaml": projection.requirements_doc(p, projection.statements_of(docs.get("requirements.yaml") or {}, "requirements")),
            "invariants.yaml": projection.invariants_doc(p, projection.statements_of(docs.get("invariants.yaml") or {}, "invariants")),
        }

    def disagreements(self, task: LoadedTask) -> list[projection.Disagreement]:
        out = []
        for fname, expected in self.render(task).items():
            rel = self.layout.rel(task.dir / fname)
            found = task.docs.get(fname)
            if found is None:
                out.append(projection.Disagreement(rel, "(file)", "present", "<missing>", "harness replay --write"))
            else:
                out.extend(projection.compare(rel, expected, found))
        return out

    # -- choosing the task -----------------------------------------------------
    def current_id(self, explicit: str | None = None) -> str:
        ids = self.task_ids()
        if explicit:
            if explicit not in ids:
                raise HarnessError(f"no task {explicit}", hint=_known(ids))
            return explicit
        chosen = self._chosen()
        if chosen in ids:
            return chosen
        open_ids = [i for i in ids if self._state_hint(i) not in states.TERMINAL]
        if len(open_ids) == 1:
            return open_ids[0]
        if not open_ids:
            raise HarnessError("no current task", hint='run `harness task new "TITLE"`')
        raise HarnessError(f"{len(open_ids)} open tasks and none chosen", hint="`harness task switch ID`; " + _known(open_ids))

    def _chosen(self) -> str | None:
        try:
            return (self.layout.local / "current").read_text("utf-8").strip()
        except OSError:
            return None

    def _state_hint(self, task_id: str) -> str | None:
        # Only to pick a default: the projection is enough, the chosen task is replayed in full.
        try:
            doc = yamlio.read(self.layout.task_dir(task_id) / "task.yaml")
            return doc["task"]["state"]
        except (HarnessError, KeyError, TypeError):
            return None

    def switch(self, task_id: str) -> None:
        self.current_id(task_id)
        fsio.atomic_write(self.layout.local / "current", task_id.encode() + b"\n")

    # -- writing ---------------------------------------------------------------
    def create(self, title: str, description: str, max_iterations: int, base_commit: str | None) -> str:
        ids = set(self.task_ids())
        task_id = new_task_id()
        while task_id in ids:
            task_id = new_task_id()
        data = {"id": task_id, "title": title, "description": description,
                "max_iterations": max_iterations, "base_commit": base_commit}
        with fsio.locked(self.layout.local / "lock"):
            empty = LoadedTask(task_id, self.layout.task_dir(task_id), ledger.Projection(), [], {})
            self._commit(empty, [("task.created", data)], {})
            (empty.dir / "findings").mkdir(exist_ok=True)
            (empty.dir / "evidence").mkdir(exist_ok=True)
            fsio.atomic_write(self.layout.local / "current", task_id.encode() + b"\n")
        return task_id

    def append(self, task_id: str, events: list[tuple[str, dict]], extra_files: dict[Path, bytes] | None = None,
               precheck=None) -> LoadedTask:
        """Append ``events`` atomically; ``precheck(task)`` runs under the lock and may raise Refused."""
        with fsio.locked(self.layout.local / "lock"):
            fsio.roll_forward(self.layout.local / "journal")
            task = self.load(task_id)
            if precheck is not None:
                events = precheck(task) or events
            self._commit(task, events, extra_files or {})
            return task

    def _commit(self, task: LoadedTask, events: list[tuple[str, dict]], extra: dict[Path, bytes]) -> None:
        prev = ledger.line_hash(task.lines[-1]) if task.lines else ledger.GENESIS
        new_lines = []
        for etype, data in events:
            line = ledger.encode_event(task.proj.seq + 1, now_iso(), etype, data, prev)
            try:
                ledger.apply(task.proj, json.loads(line))
            except ledger.LedgerProblem as exc:
                raise Refused(str(exc)) from None
            new_lines.append(line)
            prev = ledger.line_hash(line)
        task.lines.extend(new_lines)
        files = {task.dir / name: yamlio.dump(doc) for name, doc in self.render(task).items()}
        files[task.dir / "events.jsonl"] = "".join(f"{line}\n" for line in task.lines).encode("utf-8")
        files.update(extra)
        fsio.commit_files(self.layout.local / "journal", files)


def _known(ids: list[str]) -> str:
    return "known tasks: " + (", ".join(ids) if ids else "none (`harness task new`)")
