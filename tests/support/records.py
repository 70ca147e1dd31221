"""The harness's files as a test reads and forges them: task folders, ledgers, evidence, config."""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from pathlib import Path

import yaml

from harness.core.ledger import encode_event, line_hash

from support.paths import PY


def record(repo: Path, tid: str, etype: str) -> dict:
    return json.loads((repo / ".harness/tasks" / tid / "evidence" / f"{etype}.json").read_text("utf-8"))


def log_bytes(repo: Path, tid: str, etype: str) -> bytes:
    return (repo / ".harness/tasks" / tid / "evidence" / f"{etype}.log").read_bytes()


def harness_files(repo: Path) -> list[Path]:
    return [p for p in (repo / ".harness").rglob("*") if p.is_file()]


def set_config(repo: Path, text: str) -> None:
    (repo / ".harness/config.yaml").write_text("version: 1\n" + textwrap.dedent(text))


def tdir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def ledger_path(repo: Path, tid: str) -> Path:
    return tdir(repo, tid) / "events.jsonl"


def events(repo: Path, tid: str) -> list[dict]:
    # split on "\n" only: str.splitlines() would also split inside text holding U+2028, U+0085, ...
    return [json.loads(line) for line in ledger_path(repo, tid).read_bytes().split(b"\n") if line]


def ledger_bytes(repo: Path, tid: str) -> bytes:
    return (tdir(repo, tid) / "events.jsonl").read_bytes()


def append_event(repo: Path, tid: str, etype: str, data: dict) -> None:
    """A correctly chained, canonical event appended by hand (no harness command)."""
    path = tdir(repo, tid) / "events.jsonl"
    lines = path.read_text("utf-8").splitlines()
    last = json.loads(lines[-1])
    line = encode_event(last["seq"] + 1, last["ts"], etype, data, line_hash(lines[-1]))
    path.write_text("\n".join([*lines, line]) + "\n", "utf-8")


def write_yaml(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def task_dir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def set_state_by_hand(repo: Path, tid: str, state: str) -> None:
    path = task_dir(repo, tid) / "task.yaml"
    text = path.read_text("utf-8")
    new, n = re.subn(r"(?m)^(  state: )\S+$", rf"\g<1>{state}", text)
    assert n == 1, text
    path.write_text(new, "utf-8")


def rechain(path: Path, mutate) -> None:
    """Rewrite a ledger: ``mutate(events)`` edits the decoded events in place; every line is then
    re-encoded canonically with its ``prev`` recomputed, so the hash chain is valid again."""
    events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    mutate(events)
    prev, lines = "0" * 64, []
    for n, e in enumerate(events, start=1):
        line = encode_event(n, e["ts"], e["type"], e["data"], prev)
        lines.append(line)
        prev = line_hash(line)
    path.write_text("\n".join(lines) + "\n", "utf-8")


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


PASS_CMD = [PY, "-c", "pass"]


def configure(repo: Path, build: list[str], unit_test: list[str]) -> None:
    path = repo / ".harness/config.yaml"
    doc = yaml.safe_load(path.read_text("utf-8"))
    doc["evidence"] = {"build": {"command": build}, "unit_test": {"command": unit_test}}
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")


def narrow_unit_test(repo: Path) -> None:
    """unit_test's command changed (an argument added), as an agent narrowing its tests would, with no approval."""
    path = repo / ".harness/config.yaml"
    doc = yaml.safe_load(path.read_text("utf-8"))
    doc["evidence"]["unit_test"]["command"] = [*doc["evidence"]["unit_test"]["command"], "narrowed"]
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")


def crash_after_the_commit_point(monkeypatch) -> None:
    """Make the next write die right after its redo log is in place, before any rename (as SIGKILL would)."""
    import os

    real, committed = os.replace, []

    def crash_before_renames(src, dst):
        if committed:  # the rename after the redo log's own: the first of the files it promises
            raise KeyboardInterrupt
        real(src, dst)
        if os.path.basename(dst) == "journal":
            committed.append(dst)

    monkeypatch.setattr(os, "replace", crash_before_renames)


FAIL_CMD = [PY, "-c", "import sys; sys.exit(1)"]


def forge_passing(repo: Path, tid: str, etype: str) -> None:
    """Rewrite a failed evidence record as passed, consistently in its file and in the ledger
    (digest, outcome, exit code), re-chaining the ledger: what a determined forger would do."""
    folder = task_dir(repo, tid)
    path = folder / "evidence" / f"{etype}.json"
    record = json.loads(path.read_text("utf-8"))
    assert record["outcome"] == "failed" and record["exit_code"] == 1, record
    record.update(outcome="passed", exit_code=0)
    raw = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    path.write_bytes(raw)

    def mutate(events):
        (event,) = [e for e in events if e["type"] == "evidence.collected" and e["data"]["type"] == etype]
        event["data"].update(outcome="passed", exit_code=0, digest=hashlib.sha256(raw).hexdigest())

    rechain(folder / "events.jsonl", mutate)
