"""The stop hook's own memory, untracked under `.harness/local/`: consecutive blocks per
agent session (with the tree they were for), and a log of releases and hook errors that
`harness metrics` can count.

The count is per clone and never committed: it is about this agent session, not the task.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness.core.agent_policy import BlockCount
from harness.store import fsio

STATE = "agent-stop.json"
LOG = "agent-hooks.jsonl"
CRASH_BLOCKS = "agent-stop-crashes.json"
KEEP_SESSIONS = 50  # a long-lived clone sees many sessions; old counts are of no use


def _local(root: Path) -> Path:
    return root / ".harness" / "local"


@contextmanager
def session_counts(root: Path) -> Iterator[dict[str, dict[str, Any]]]:
    """The counts of every session, read and written back under a lock."""
    local = _local(root)
    local.mkdir(parents=True, exist_ok=True)
    with fsio.locked(local / "agent-lock"):
        try:
            counts = json.loads((local / STATE).read_text("utf-8"))
            if not isinstance(counts, dict):
                counts = {}
        except (OSError, ValueError):
            counts = {}
        before = json.dumps(counts, sort_keys=True)
        yield counts
        if json.dumps(counts, sort_keys=True) != before:
            recent = dict(list(counts.items())[-KEEP_SESSIONS:])
            fsio.atomic_write(local / STATE, json.dumps(recent, indent=1).encode("utf-8"))


def get(counts: dict[str, dict[str, Any]], session: str) -> BlockCount | None:
    raw = counts.get(session)
    try:
        return BlockCount(**raw) if isinstance(raw, dict) else None
    except TypeError:
        return None


def put(counts: dict[str, dict[str, Any]], session: str, count: BlockCount | None) -> None:
    counts.pop(session, None)
    if count is not None:
        counts[session] = asdict(count)


def first_crash_block(folder: Path, session: str) -> bool:
    """Whether a stop that crashed before it could reach the task's own memory (no readable
    work tree, an error escaping the check) has not blocked this session yet; records that it
    now does. Kept beside the crash logs (``crashlog.folder``). Raises when it cannot remember,
    and the caller then lets the agent stop: a block that is not remembered could loop forever."""
    session = session[:200]  # the id is the host's input: a huge one must not bloat the file
    with fsio.locked(folder / "agent-stop-crashes.lock"):
        try:
            sessions = json.loads((folder / CRASH_BLOCKS).read_text("utf-8"))
            if not isinstance(sessions, list):
                sessions = []
        except (OSError, ValueError):
            sessions = []
        if session in sessions:
            return False
        fsio.atomic_write(folder / CRASH_BLOCKS, json.dumps([*sessions, session][-KEEP_SESSIONS:]).encode("utf-8"))
        return True


def record(root: Path, event: str, **data: Any) -> None:
    """Append one line to the hook log (releases, errors): a record for `harness metrics`."""
    local = _local(root)
    local.mkdir(parents=True, exist_ok=True)
    line = {"at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "event": event, **data}
    with open(local / LOG, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line, ensure_ascii=False) + "\n")


def read_log(root: Path) -> list[dict[str, Any]]:
    try:
        lines = (_local(root) / LOG).read_text("utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a torn last line from a killed hook is not worth failing over
    return out


def tally(root: Path) -> dict[str, dict[str, Any]]:
    """event -> {"total": n, "by_host": {host: n}} over this clone's hook log."""
    out: dict[str, dict[str, Any]] = {}
    for entry in read_log(root):
        per = out.setdefault(str(entry.get("event")), {"total": 0, "by_host": {}})
        host = str(entry.get("host", "?"))
        per["total"] += 1
        per["by_host"][host] = per["by_host"].get(host, 0) + 1
    return out
