"""The per-task store: ledger, projections, and the choice of current task.

Every change is: take the lock, finish any interrupted write, re-read and verify the
ledger, apply the new events through the replay rules, render the projections, and
replace all files as one unit. A refused event writes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from harness.core import ledger, projection, states
from harness.errors import HarnessError, Refused
from harness.store import bounded, fsio, reader, validate, yamlio
from harness.store.layout import TASK_ID, Layout
from harness.store.reader import TASKS, LoadedTask
from harness.store.source import FsSource

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from harness.context import Context
    from harness.core.redact import Redactor
    from harness.gitio.git import Git


def now_iso() -> str:
    return iso_utc()


def iso_utc(t: float | None = None, milliseconds: bool = False) -> str:
    """``t`` (now by default) as `datetime.fromtimestamp(t, UTC).isoformat()` writes it to the second or
    millisecond, with a Z: the clock read without importing datetime (3 ms of every ledger append)."""
    import time

    t = time.time() if t is None else t
    whole = int(t) if t >= 0 else -int(-t) - (t != int(t))  # floor
    micro = round((t - whole) * 1_000_000)  # datetime rounds to the microsecond first
    if micro >= 1_000_000:
        whole, micro = whole + 1, micro - 1_000_000
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
    return f"{text}.{micro // 1000:03d}Z" if milliseconds else f"{text}Z"


def new_task_id(today: datetime | None = None) -> str:
    # Date for humans, 24 random bits so two branches from one base never collide.
    import secrets  # (with hmac, base64 and random) only where a task is created
    from datetime import UTC, datetime

    return f"TASK-{(today or datetime.now(UTC)):%Y%m%d}-{secrets.token_hex(3)}"


class TaskStore:
    """A repository's tasks, read and written under its lock. ``ctx``: the command's context, built at the
    edge (harness.context): whom a wait for the lock is told (none: a fresh, silent one)."""

    def __init__(self, layout: Layout, ctx: Context | None = None) -> None:
        from harness.context import Context

        self.layout = layout
        self.ctx = ctx if ctx is not None else Context()
        self.source = FsSource(layout.root, layout.valid_cache)

    @functools.cached_property
    def git(self) -> Git:
        """The repository, opened once per command (and only by commands that need git)."""
        from harness.gitio.git import Git

        return Git(self.layout.root)

    # -- reading ---------------------------------------------------------------
    def task_ids(self) -> list[str]:
        return reader.task_ids(self.source)

    def recover(self) -> None:
        """Roll forward a write a killed process left half done."""
        if (self.layout.local / "journal").exists():
            with self.writing():
                self._finish_interrupted()

    def reading(self) -> AbstractContextManager[None]:
        """The lock shared: a reader never sees a write half done (writers hold it exclusively)."""
        return self.writing(shared=True)

    def writing(self, shared: bool = False) -> AbstractContextManager[None]:
        """The store's lock: its file, and the `.harness` folder cleaning cannot remove (harness.store.fsio.locked),
        waited for as long as the command's context allows (an agent hook: less than its host's timeout)."""
        return fsio.locked(self.layout.lock, shared=shared, on_wait=self.ctx.on_lock_wait, folder=self.layout.harness,
                           deadline=self.ctx.lock_deadline)

    def _finish_interrupted(self) -> None:
        """Under the lock: roll forward the write a killed process left (if its files are still the ones it was
        computed from; else it is dropped, and the command's context is told why)."""
        try:
            fsio.roll_forward(self.layout.local / "journal")
        except fsio.NotApplied as exc:
            if self.ctx.on_lock_wait is not None:
                self.ctx.on_lock_wait(f"harness: {exc.message}; {exc.hint}")

    def load(self, task_id: str, docs: bool = True) -> LoadedTask:
        with self.reading():
            return reader.load_task(self.source, task_id, docs)

    def render(self, task: LoadedTask) -> dict[str, dict]:
        return reader.render(task)

    def disagreements(self, task: LoadedTask) -> list[projection.Disagreement]:
        return reader.disagreements(task)

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
        open_ids = self.open_ids(ids)
        if len(open_ids) == 1:
            return open_ids[0]
        if not open_ids:
            raise HarnessError("no current task", hint='run `harness task new "TITLE"`')
        raise HarnessError(f"{len(open_ids)} open tasks and none chosen", hint="`harness task switch ID`; " + _known(open_ids))

    def open_ids(self, ids: list[str] | None = None) -> list[str]:
        """Tasks not (by their projection) in a terminal state."""
        return [i for i in (self.task_ids() if ids is None else ids) if self._state_hint(i) not in states.TERMINAL]

    def _chosen(self) -> str | None:
        try:
            raw = bounded.read(self.layout.local / "current", "state")
            return raw.decode("utf-8").strip() if raw is not None else None
        except (HarnessError, UnicodeDecodeError):
            return None  # no usable choice: the task is chosen as if none was made

    def _state_hint(self, task_id: str) -> str | None:
        # Only to pick a default: the projection is enough, the chosen task is replayed in full.
        try:
            doc = yamlio.read(self.layout.task_dir(task_id) / "task.yaml", kind="yaml")
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
        with self.writing():
            self._finish_interrupted()
            self._sweep_ghosts()
            empty = LoadedTask(task_id, f"{TASKS}/{task_id}", ledger.Projection(), [], {})
            self._commit(empty, [("task.created", data)], {})
            for sub in ("findings", "evidence"):
                (self.layout.task_dir(task_id) / sub).mkdir(exist_ok=True)
            fsio.atomic_write(self.layout.local / "current", task_id.encode() + b"\n")
        return task_id

    def _sweep_ghosts(self) -> None:
        """Remove what a `task new` killed before its commit point left: a task folder holding only its temps
        (harness.store.reader.is_task reads it as no task). Under the lock, with no redo log pending."""
        import os

        for name in self.source.listdir(TASKS):
            folder = self.layout.task_dir(name)
            if not TASK_ID.match(name) or reader.is_task(self.source, name) or not folder.is_dir() or folder.is_symlink():
                continue
            fsio.sweep_temps(folder)
            for sub in ("findings", "evidence", None):
                with contextlib.suppress(OSError):  # only an empty folder goes
                    os.rmdir(folder / sub if sub else folder)

    def append(self, task_id: str, events: list[tuple[str, dict[str, Any]]],
               extra_files: dict[Path, bytes] | None = None,
               precheck: Callable[[LoadedTask], list[tuple[str, dict[str, Any]]]] | None = None) -> LoadedTask:
        """Append ``events`` atomically; ``precheck(task)`` runs under the lock and may raise Refused."""
        with self.writing():
            self._finish_interrupted()
            for folder in (self.layout.task_dir(task_id), self.layout.task_dir(task_id) / "evidence"):
                fsio.sweep_temps(folder)
            task = reader.load_task(self.source, task_id)  # under our exclusive lock already
            if precheck is not None:
                events = precheck(task) or events
            self._commit(task, events, extra_files or {})
            return task

    def rewrite(self, task_id: str) -> list[str]:
        """Re-render the YAML files from the ledger, keeping the free-form text of every file
        that still parses (even one failing its schema). Returns why a file's text was lost."""
        with self.writing():
            self._finish_interrupted()
            # A broken ledger raises here: there is nothing true to render from.
            task = reader.load_task(self.source, task_id, docs=False)
            lost = []
            for name in reader.TASK_FILES:
                rel = f"{task.dir}/{name}"
                raw = self.source.read(rel)
                try:
                    # as any free text a person gives the harness: redacted, a token wrapped over lines too (F-0557)
                    text = freeform(name, self.unfolded(yamlio.parse(raw, rel), raw)) if raw and raw.strip() else None
                    task.docs[name] = self.as_stored(text) if text is not None else None
                except HarnessError as exc:
                    lost.append(exc.message)
            folder = self.layout.root / task.dir
            files = checked_render(task, self.render(task), folder)
            fsio.commit_files(self.layout.local / "journal", files)
        return lost

    def set_spec(self, task_id: str, links: dict[str, str | None]) -> dict[str, str | None]:
        """Set the task's `spec` links (``design``, ``plan``: a path or URL, None to clear) in
        task.yaml: free-form text, so no event; the rest of the file is re-rendered as it was."""
        with self.writing():
            self._finish_interrupted()
            task = reader.load_task(self.source, task_id)
            doc = task.docs.get("task.yaml") or {"task": {}}
            old = doc["task"].get("spec") or {}
            spec = {k: links[k] if k in links else old.get(k) for k in ("design", "plan")}
            # Free text a person or an agent gives, written with no event: redacted here as an event's text is at
            # _commit (read 63b's F-0178: a link's `?access_token=…` or `user:password@` was written in clear).
            from harness.store import secrets_check

            spec = secrets_check.unnamed_env(secrets_check.redact_data(spec, secrets_check.redactor(self._redaction_patterns())))
            doc["task"]["spec"] = spec
            task.docs["task.yaml"] = doc
            folder = self.layout.root / task.dir
            fsio.commit_files(self.layout.local / "journal", checked_render(task, self.render(task), folder))
        return spec

    def as_stored(self, data: dict) -> dict:
        """``data`` as an event's data is stored: redacted at the one boundary (:meth:`_commit`)."""
        from harness.store import secrets_check

        return secrets_check.redact_data(data, self.redactor())

    def redactor(self) -> Redactor:
        """The redactor of what this store writes: the harness's rules and config.yaml's `redaction.patterns`."""
        from harness.store import secrets_check

        return secrets_check.redactor(self._redaction_patterns())

    def unfolded(self, data: Any, source: bytes) -> Any:
        """``data``, parsed from the YAML file ``source`` a person or agent wrote, with each secret the file holds
        wrapped over lines replaced where the parse joined its pieces (:func:`secrets_check.unfolded`, F-0546)."""
        from harness.store import secrets_check

        return secrets_check.unfolded(data, source.decode("utf-8", errors="replace"), self.redactor())

    def _redaction_patterns(self) -> tuple[str, ...]:
        """config.yaml's `redaction.patterns`: a value the project names as secret is one in free text too
        (F-0153). A config no reader accepts (a FIFO, a bad pattern) blocks no write: it gives none, and
        the commit check, which reads the committed config's patterns, refuses what they name."""
        from harness.store import settings

        try:
            return settings.config_of(self.source).redaction
        except HarnessError:
            return ()

    def _commit(self, task: LoadedTask, events: list[tuple[str, dict]], extra: dict[Path, bytes]) -> None:
        from harness.store import secrets_check

        # The one redaction boundary: every string an event carries (a title, a statement, a
        # finding's reproducer argv, a recorded command) is redacted before its line is hashed,
        # so the chain stays whole and every file rendered from the ledger inherits it.
        red = secrets_check.redactor(self._redaction_patterns())
        for _, data in events:
            rule = secrets_check.agents_name_flagged(data, red)
            if rule:  # a name is not redacted (files are named after it): one that holds a secret is refused
                raise Refused(f"refused: an evidence type's name holds what looks like a secret ({rule}); nothing was "
                              "written", hint="name the custom type without it (e.g. `harness evidence custom.perf -- CMD`)")
        events = [(etype, secrets_check.redact_data(data, red)) for etype, data in events]
        _no_secret_in(extra, self.layout.root, red)
        prev = ledger.line_hash(task.lines[-1]) if task.lines else ledger.GENESIS
        new_lines = []
        for etype, data in events:
            line = ledger.encode_event(task.proj.seq + 1, now_iso(), etype, data, prev)
            event = json.loads(line)
            try:  # the rules first: a refusal in their words (exit 1), as replay gives it
                ledger.apply(task.proj, event)
            except ledger.LedgerProblem as exc:
                raise Refused(exc.message, exc.hint) from None
            problem = validate.event_problem(event)
            if problem:  # a bug in the command that built it: refuse rather than write it
                raise HarnessError(f"refusing to record a {etype} event its schema refuses: {problem}")
            new_lines.append(line)
            prev = ledger.line_hash(line)
        task.lines.extend(new_lines)
        folder = self.layout.root / task.dir
        files = checked_render(task, self.render(task), folder)
        ledger_raw = "".join(f"{line}\n" for line in task.lines).encode("utf-8")
        _fits(f"{task.dir}/events.jsonl", ledger_raw)
        files[folder / "events.jsonl"] = ledger_raw
        files.update(extra)
        fsio.commit_files(self.layout.local / "journal", files)
        # Every line was checked (the old ones when loaded, the new ones above): the next
        # reader need not check them again.
        validate.remember_valid("event", ledger_raw, self.source.valid_cache)


def checked_render(task: LoadedTask, docs: dict[str, dict], folder: Path) -> dict[Path, bytes]:
    """The rendered files, each checked against its schema before anything is written: a
    change the rules let through but a reader would refuse is refused here, not left behind."""
    files = {}
    for name, doc in docs.items():
        raw = yamlio.dump(doc)
        _fits(f"{task.dir}/{name}", raw)
        try:
            validate.check(doc, reader.schema_of(name), f"{task.dir}/{name}", raw)
        except HarnessError as exc:
            raise Refused(f"refused: the change would leave a file no reader accepts — {exc.message}",
                          hint="nothing was written; this is a harness bug if a command you ran produced it") from None
        files[folder / name] = raw
    return files


def _no_secret_in(files: dict[Path, bytes], root: Path, red: Any) -> None:
    """Refuse to write a file (an evidence record, log or listing) its writer left a secret in: a
    file's digest is bound in the ledger, so it is the writer's to redact, and this checks it did."""
    from harness.store.secrets_check import secrets_in, stored

    # Read as another shell's recording is: a file may copy one (PASS_TO_PASS reusing a run, its variables' markers
    # with it: read 72's F-0239); this shell's own output was redacted by the writer before it got here.
    red = stored(red)
    for path, raw in files.items():
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:
            rel = path.as_posix()
        found = secrets_in(rel, raw, red, own=True)
        if found:
            line, rule = found[0]
            raise HarnessError(f"refusing to write {rel}: line {line} holds a secret ({rule}); nothing was written",
                               hint="a harness bug: its writer should have redacted it; report it with the rule named")


def _fits(rel: str, raw: bytes) -> None:
    """Refuse a write that would leave a file over the size every reader refuses (YAML escapes
    text: a statement under the input cap can render to twice the size)."""
    cap = bounded.CAPS[bounded.kind_of(rel)]
    if len(raw) > cap:
        raise Refused(f"refused: {rel} would be {len(raw)} bytes, over the {cap // bounded.MiB} MiB a reader "
                      "accepts; nothing was written", hint="shorten the text (long statements belong in a linked "
                      "design document, `spec` in task.yaml)")


def _known(ids: list[str]) -> str:
    return "known tasks: " + (", ".join(ids) if ids else "none (`harness task new`)")


def freeform(name: str, doc: object) -> dict | None:
    """The free-form text of a parsed task file, whatever else in it is wrong: the title,
    description and spec links of task.yaml, the statements of the two item files."""
    if not isinstance(doc, dict):
        return None
    if name == "task.yaml":
        task = doc.get("task")
        if not isinstance(task, dict):
            return None
        out = {k: task[k] for k in ("title", "description") if isinstance(task.get(k), str)}
        if isinstance(task.get("spec"), dict):
            out["spec"] = {k: v if isinstance(v := task["spec"].get(k), str) else None for k in ("design", "plan")}
        return {"task": out}
    key = name.removesuffix(".yaml")  # requirements / invariants
    items: list[Any] = doc[key] if isinstance(doc.get(key), list) else []
    return {key: [{"id": i["id"], "statement": i["statement"]} for i in items
                  if isinstance(i, dict) and isinstance(i.get("id"), str) and isinstance(i.get("statement"), str)]}
