"""Helpers shared by the test modules (fixtures live in conftest.py).

Test modules import from here, never from each other: one definition of each helper.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from harness.core.ledger import encode_event, line_hash


def tdir(repo: Path, tid: str) -> Path:
    """A task's folder."""
    return repo / ".harness" / "tasks" / tid


def events(repo: Path, tid: str) -> list[dict]:
    """The task's ledger, decoded."""
    return [json.loads(line) for line in (tdir(repo, tid) / "events.jsonl").read_text("utf-8").splitlines()]


def ledger_bytes(repo: Path, tid: str) -> bytes:
    return (tdir(repo, tid) / "events.jsonl").read_bytes()


def append_event(repo: Path, tid: str, etype: str, data: dict) -> None:
    """A correctly chained, canonical event appended by hand (no harness command)."""
    path = tdir(repo, tid) / "events.jsonl"
    lines = path.read_text("utf-8").splitlines()
    last = json.loads(lines[-1])
    line = encode_event(last["seq"] + 1, last["ts"], etype, data, line_hash(lines[-1]))
    path.write_text("\n".join([*lines, line]) + "\n", "utf-8")


def write_ledger(repo: Path, tid: str, evs: list[tuple[str, dict]], ts: str = "2025-01-01T00:00:00Z") -> Path:
    """A whole hand-made ledger for task ``tid``, correctly chained."""
    path = tdir(repo, tid) / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    prev, lines = "0" * 64, []
    for seq, (etype, data) in enumerate(evs, start=1):
        lines.append(encode_event(seq, ts, etype, data, prev))
        prev = line_hash(lines[-1])
    path.write_text("".join(f"{line}\n" for line in lines), "utf-8")
    return path


def write_yaml(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path
