"""The stop hook's own memory, untracked under `.harness/local/`: consecutive blocks per
agent session (with the tree they were for), and a log of releases and hook errors that
`harness metrics` can count.

The count is per clone and never committed: it is about this agent session, not the task.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from harness import paths
from harness.agent.judge.agent_policy import BlockCount
from harness.core.limits import decode_json, json_kind, json_object, text_field, type_problem
from harness.core.value_class import asdict
from harness.errors import HarnessError
from harness.store import bounded, fsio

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

STATE = "agent-stop.json"
LOG = "agent-hooks.jsonl"
LOG_NAME = f"{paths.LOCAL}/{LOG}"
CRASH_BLOCKS = "agent-stop-crashes.json"
KEEP_SESSIONS = 50  # a long-lived clone sees many sessions; old counts are of no use


def _local(root: Path) -> Path:
    return root / paths.LOCAL


@contextmanager
def session_counts(root: Path, on_wait: Callable[[str], None] | None = None,
                   deadline: float | None = None) -> Iterator[dict[str, dict[str, Any]]]:
    """The counts of every session, read and written back under a lock (``on_wait`` hears that another hook holds it;
    ``deadline``: past it the lock is not waited for, harness.store.fsio.locked)."""
    local = _local(root)
    local.mkdir(parents=True, exist_ok=True)
    with fsio.locked(local / "agent-lock", on_wait=on_wait, deadline=deadline):
        # Read bounded (a FIFO there would hang the hook): anything but a regular file is refused,
        # and the stop hook fails closed on the refusal. Unreadable JSON is a lost memory: reset.
        raw = bounded.read(local / STATE, "state", f"{paths.LOCAL}/{STATE}")
        try:
            counts = json_object(raw) if raw else {}
        except ValueError:
            counts = {}
        before = json.dumps(counts, sort_keys=True)
        yield counts
        if json.dumps(counts, sort_keys=True) != before:
            recent = dict(list(counts.items())[-KEEP_SESSIONS:])
            fsio.atomic_write(local / STATE, json.dumps(recent, indent=1).encode("utf-8"))


_COUNT_TYPES = {"session": (str,), "tree": (str,), "blocks": (int,), "released": (bool,), "error_blocked": (bool,)}


def get(counts: dict[str, dict[str, Any]], session: str) -> BlockCount | None:
    """The count kept for ``session``; one whose values have not their types is no count."""
    raw = counts.get(session)
    if not isinstance(raw, dict) or set(raw) - set(_COUNT_TYPES) or None in raw.values():
        return None
    if type_problem(raw, _COUNT_TYPES) or "session" not in raw or "tree" not in raw:
        return None
    return BlockCount(**raw)


def put(counts: dict[str, dict[str, Any]], session: str, count: BlockCount | None) -> None:
    counts.pop(session, None)
    if count is not None:
        counts[session] = asdict(count)


def first_crash_block(folder: Path, session: str, on_wait: Callable[[str], None] | None = None,
                      deadline: float | None = None) -> bool:
    """Whether a stop that crashed before it could reach the task's own memory (no readable
    work tree, an error escaping the check) has not blocked this session yet; records that it
    now does. Kept beside the crash logs (``crashlog.folder``). Raises when it cannot remember,
    and the caller then lets the agent stop: a block that is not remembered could loop forever."""
    session = session[:200]  # the id is the host's input: a huge one must not bloat the file
    with fsio.locked(folder / "agent-stop-crashes.lock", on_wait=on_wait, deadline=deadline):
        raw = bounded.read(folder / CRASH_BLOCKS, "state")
        try:
            sessions = decode_json(raw) if raw else []
        except ValueError:
            sessions = []
        if not isinstance(sessions, list):
            sessions = []
        if session in sessions:
            return False
        fsio.atomic_write(folder / CRASH_BLOCKS, json.dumps([*sessions, session][-KEEP_SESSIONS:]).encode("utf-8"))
        return True


def record(root: Path, event: str, **data: Any) -> None:
    """Append one line to the hook log (releases, errors): a record for `harness metrics`."""
    local = _local(root)
    local.mkdir(parents=True, exist_ok=True)
    from datetime import UTC, datetime  # here: a stop that releases nothing never reads the clock

    line = {"at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "event": event, **data}
    # One write, to a regular file only (a FIFO there would block the hook until read).
    bounded.append(local / LOG, (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8", "replace"),
                   LOG_NAME)


def read_log(root: Path) -> list[dict[str, Any]]:
    """The log's records. A torn line (a hook killed mid-append) is skipped; a line that is JSON
    but no record (not an object, an event or host that is not text) the hook never wrote, and is
    refused, naming the file and line."""
    raw = bounded.read(_local(root) / LOG, "hooklog", LOG_NAME)
    out = []
    for number, line in enumerate((raw or b"").split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            entry = decode_json(line)
        except ValueError:
            continue  # torn: not worth failing over
        problem = (f"not a JSON object but {json_kind(entry)}" if not isinstance(entry, dict)
                   else type_problem(entry, {"event": (str,), "host": (str,)}))
        if problem is None and not isinstance(entry.get("event"), str):
            problem = "no event"
        if problem:
            raise HarnessError(f"{LOG_NAME}:{number}: not a record the agent hooks wrote ({problem})",
                               hint="the log is this clone's own record: remove that line (or the file) to count again")
        out.append(entry)
    return out


def tally(root: Path) -> dict[str, dict[str, Any]]:
    """event -> {"total": n, "by_host": {host: n}} over this clone's hook log."""
    out: dict[str, dict[str, Any]] = {}
    for entry in read_log(root):
        per = out.setdefault(entry["event"], {"total": 0, "by_host": {}})
        host = text_field(entry, "host") or "?"
        per["total"] += 1
        per["by_host"][host] = per["by_host"].get(host, 0) + 1
    return out
