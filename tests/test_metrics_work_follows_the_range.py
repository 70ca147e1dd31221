"""`harness metrics` over a range decodes the ledger it starts from once, then only what the range
appends: two ranges of the same shape, one starting from a ledger longer by G events, decode
exactly G events more (before: three times G, the start's ledger validated twice and the end's
decoded again whole). Counted in events decoded and blobs read, never in time."""

from __future__ import annotations

import json

import pytest

from harness.gitio import blob_memo
from harness.gitio.git import Git
from harness.history.metrics import measure
from harness.store import ledger_memo
from harness.store.layout import open_layout
from harness.store.tasks import TaskStore

from support.gitrepo import commit_all_ok

SHORT, GROWTH, ADDED, COMMITS = 40, 400, 3, 9


def _toggles(first: int, n: int) -> list[tuple[str, dict]]:
    return [("requirement.set", {"id": "REQ-001", "status": ("implemented", "pending")[k % 2], "evidence": []})
            for k in range(first, first + n)]


def _range(store: TaskStore, repo, task: str, name: str) -> tuple[str, str]:
    """COMMITS commits after the current one, every third appending one event: (start, end)."""
    start = commit_all_ok(repo, f"{name}: start")
    for n in range(COMMITS):
        if n % 3 == 2:
            store.append(task, _toggles(n, 1))
        else:
            (repo / "app.py").write_text(f"def answer():\n    return 42  # {name} {n}\n")
        end = commit_all_ok(repo, f"{name}: commit {n}")
    return start, end


@pytest.fixture
def two_ranges(h, repo, task, monkeypatch) -> dict[str, tuple[str, str]]:
    """The same range twice: once from a ledger of ~SHORT events, once from one GROWTH longer."""
    h.ok("requirement", "add", "It works", "--priority", "must")
    monkeypatch.chdir(repo)
    store = TaskStore(open_layout(repo))
    store.append(task, _toggles(0, SHORT))
    short = _range(store, repo, task, "short")
    store.append(task, _toggles(0, GROWTH))
    return {"short": short, "long": _range(store, repo, task, "long"), "task": task}


def _lines_at(repo, commit: str, task: str) -> int:
    raw = Git(repo).read_at(commit, f".harness/tasks/{task}/events.jsonl") or b""
    return raw.count(b"\n")


def _decoded_in(monkeypatch, run) -> int:
    """How many JSON texts ``run()`` decodes, in a process that remembers nothing yet."""
    ledger_memo.forget()
    blob_memo.forget()
    count, real = [0], json.loads

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(json, "loads", counting)
        run()
    return count[0]


def test_a_longer_starting_ledger_costs_its_one_validation_and_nothing_more(h, repo, two_ranges, monkeypatch):
    g, task = Git(repo), two_ranges["task"]
    decoded = {name: _decoded_in(monkeypatch, lambda r=two_ranges[name]: measure(g, r[0], r[1]))
               for name in ("short", "long")}
    longer_by = _lines_at(repo, two_ranges["long"][0], task) - _lines_at(repo, two_ranges["short"][0], task)
    assert longer_by == GROWTH + ADDED
    assert decoded["long"] - decoded["short"] == longer_by


def test_the_range_decodes_its_start_once_and_each_appended_event_once(h, repo, two_ranges, monkeypatch):
    g, task = Git(repo), two_ranges["task"]
    start, end = two_ranges["long"]
    decoded = _decoded_in(monkeypatch, lambda: measure(g, start, end))
    at_start = _lines_at(repo, start, task)
    assert _lines_at(repo, end, task) == at_start + ADDED
    # What is not the ledger (config, evidence, the first event a task's facts need) stays a few dozen.
    assert at_start + ADDED <= decoded < at_start + ADDED + 50


def test_each_ledger_version_is_read_from_git_once(h, repo, two_ranges, monkeypatch):
    g = Git(repo)
    start, end = two_ranges["long"]
    ledger_memo.forget()
    blob_memo.forget()
    read, keep = [], blob_memo.keep

    def recording(oid, data):
        if len(data) >= blob_memo.SMALL:
            read.append(str(oid))
        return keep(oid, data)

    monkeypatch.setattr(blob_memo, "keep", recording)
    measure(g, start, end)
    assert len(read) == ADDED + 1  # the start's ledger and each version the range appends to
    assert len(set(read)) == len(read)
