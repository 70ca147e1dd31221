"""An audit or `harness metrics` over a range reads a task's finding files once, not at every commit that touches the
task (#28 item 4, self-found 35: F-0165). Counted in finding files parsed, never in time. A file that changes, or
whose finding changes in the ledger while the file is left as it was, is read and compared again: every
disagreement a whole reading finds is still found, at the same commits."""

from __future__ import annotations

import itertools
import json

import pytest

from harness import context
from harness.core.chain import encode_event, line_hash
from harness.gitio.git import Git
from harness.gitio.tree_source import of_commit
from harness.store import ledger_memo, reader, yamlio
from harness.store.layout import open_layout
from harness.store.source import FsSource
from harness.store.tasks import TaskStore

from support.gitrepo import commit_all_ok, git

FINDINGS, COMMITS = 12, 4


def _finding(n: int) -> tuple[str, dict]:
    return ("finding.proposed", {"id": f"F-{n:04d}", "content": {
        "severity": "minor", "category": "correctness", "title": f"defect number {n} in the widget",
        "claim": f"w.f({n}) returns the wrong value", "failure_scenario": ["call it with a negative"],
        "expected_behavior": "the right value", "location": {"file": "src/w.py"},
        "recommended_reproducer": {"type": "unit_test", "description": "d",
                                   "command": f"python3 -c 'import w; w.f({n})'"}}})


def _toggle(n: int) -> tuple[str, dict]:
    return ("requirement.set", {"id": "REQ-001", "status": ("implemented", "pending")[n % 2], "evidence": []})


@pytest.fixture
def findings_task(h, repo, task, monkeypatch) -> tuple[TaskStore, str, str]:
    """(store, task, the commit before the range): a task of FINDINGS findings, committed."""
    h.ok("requirement", "add", "It works", "--priority", "must")
    monkeypatch.chdir(repo)
    store = TaskStore(open_layout(repo))
    store.append(task, [_finding(n) for n in range(1, FINDINGS + 1)])
    return store, task, commit_all_ok(repo, "a task of findings")


def _finding_reads(monkeypatch, run) -> int:
    """The finding files ``run()`` parses, in a process that remembers nothing yet."""
    monkeypatch.setattr(context, "_PROCESS", None)
    count, real = [0], yamlio.parse

    def counting(text, name):
        count[0] += "/findings/F-" in name
        return real(text, name)

    with monkeypatch.context() as m:
        m.setattr(yamlio, "parse", counting)
        run()
    return count[0]


_TOGGLES = itertools.count()


def _events_only(repo, task: str) -> None:
    """One event appended to the task's ledger, its files rendered as the harness renders them."""
    TaskStore(open_layout(repo)).append(task, [_toggle(next(_TOGGLES))])


@pytest.mark.parametrize("command", ["audit", "metrics"])
def test_a_range_adding_events_reads_each_finding_file_once(h, repo, findings_task, monkeypatch, command):
    _, task, base = findings_task
    for _ in range(COMMITS):
        _events_only(repo, task)
        commit_all_ok(repo, "one event more")
    reads = _finding_reads(monkeypatch, lambda: h.ok(command, "--from", base, "--to", "HEAD"))
    assert reads == FINDINGS  # before: FINDINGS at each of the COMMITS commits


def _audit_problems(h, base: str) -> dict[str, list[str]]:
    """commit -> the files its problems name, by `harness audit --json`."""
    doc = json.loads(h("audit", "--from", base, "--to", "HEAD", "--json").out)
    return {row["commit"]: sorted({p["file"] for p in row["problems"]}) for row in doc["results"]}


def test_a_finding_file_edited_by_hand_mid_range_is_read_and_refused_at_each_commit_carrying_it(
        h, repo, findings_task, monkeypatch):
    _, task, base = findings_task
    _events_only(repo, task)
    agreeing = commit_all_ok(repo, "one event more")
    edited = repo / f".harness/tasks/{task}/findings/F-0002.yaml"
    edited.write_text(edited.read_text().replace("defect number 2 in", "defect number two in"))
    by_hand = commit_all_ok(repo, "the file edited by hand", "--no-verify")
    _events_only(repo, task)  # rendered again from the ledger: the edit is undone
    mended = commit_all_ok(repo, "one event more")
    monkeypatch.setattr(context, "_PROCESS", None)
    problems = _audit_problems(h, base)
    assert problems[agreeing] == [] and problems[mended] == []
    assert problems[by_hand] == [f".harness/tasks/{task}/findings/F-0002.yaml"]


def _append_by_hand(repo, task: str, etype: str, data: dict) -> None:
    path = repo / f".harness/tasks/{task}/events.jsonl"
    lines = path.read_text("utf-8").splitlines()
    last = json.loads(lines[-1])
    path.write_text("\n".join([*lines, encode_event(last["seq"] + 1, last["ts"], etype, data, line_hash(lines[-1]))])
                    + "\n", "utf-8")


def test_a_finding_changed_in_the_ledger_beside_its_unchanged_file_is_compared_again(
        h, repo, findings_task, monkeypatch):
    """The same blob agreed at the commit before; the finding it must agree with is not the same now."""
    _, task, base = findings_task
    _events_only(repo, task)
    agreeing = commit_all_ok(repo, "one event more")
    g = Git(repo)
    _append_by_hand(repo, task, "finding.reproduced", {
        "id": "F-0003", "command": "python3 -c 'import w; w.f(3)'", "argv": ["python3", "-c", "import w; w.f(3)"],
        "exit_code": 1, "outcome": "failed", "tree": g.worktree_source_tree(), "head": g.head(), "output_tail": "",
        "files": {}})
    stale = commit_all_ok(repo, "the ledger alone, its files left as they were", "--no-verify")
    monkeypatch.setattr(context, "_PROCESS", None)
    problems = _audit_problems(h, base)
    assert problems[agreeing] == []
    assert f".harness/tasks/{task}/findings/F-0003.yaml" in problems[stale]


def test_a_working_tree_s_finding_file_is_compared_after_an_audit_found_its_blob_agreeing(
        h, repo, findings_task, monkeypatch):
    """The agreement is a commit's blob's: the same file on disk, edited since, is read and compared (status, gate)."""
    _, task, base = findings_task
    _events_only(repo, task)
    commit_all_ok(repo, "one event more")
    monkeypatch.setattr(context, "_PROCESS", None)
    h.ok("audit", "--from", base, "--to", "HEAD")  # in this process: F-0001's blob is known to agree
    edited = repo / f".harness/tasks/{task}/findings/F-0001.yaml"
    edited.write_text(edited.read_text().replace("defect number 1 in", "defect number one in"))
    found = reader.disagreements(reader.load_task(FsSource(repo), task))
    assert [d.file for d in found] == [f".harness/tasks/{task}/findings/F-0001.yaml"]


def test_a_parent_s_state_is_the_one_its_whole_reading_gives(h, repo, findings_task):
    _, task, base = findings_task
    src = of_commit(Git(repo), base)
    assert reader.state_of(src, task) == reader.load_task(src, task, docs=False).proj.state
    ledger_memo.forget()
    assert reader.state_of(src, task) == reader.load_task(src, task, docs=False).proj.state  # not remembered first
    path = repo / f".harness/tasks/{task}/events.jsonl"
    path.write_text(path.read_text().replace('"title":"Add resumable execution"', '"title":"Another"', 1))
    assert reader.state_of(FsSource(repo), task) is None  # a broken chain: no state, as load_task refuses it
    git(repo, "checkout", "-q", "--", ".")
    assert reader.state_of(FsSource(repo), "TASK-20000101-000000") is None  # no such ledger


def test_a_long_ledger_s_projection_is_handed_out_as_a_copy_of_its_own(h, repo, task, monkeypatch):
    """Kept pickled past PICKLED_FROM lines: each reader's projection equals a whole replay and shares nothing."""
    h.ok("requirement", "add", "It works", "--priority", "must")
    monkeypatch.chdir(repo)
    store = TaskStore(open_layout(repo))
    store.append(task, [_toggle(n) for n in range(ledger_memo.PICKLED_FROM)])
    raw = (repo / f".harness/tasks/{task}/events.jsonl").read_bytes()
    name = f".harness/tasks/{task}/events.jsonl"
    ledger_memo.forget()
    _, whole = reader.parse_ledger(raw, name)
    assert ledger_memo.exact(raw, name).pickled is not None
    lines, first = reader.parse_ledger(raw, name)
    first.requirements["REQ-001"]["status"] = "changed by a reader"
    first.findings["F-9999"] = {}
    lines.append("a line of a reader's own")
    lines2, second = reader.parse_ledger(raw, name)
    assert second == whole and "F-9999" not in second.findings and len(lines2) == len(lines) - 1
    assert ledger_memo.state_of(raw, name) == (task, whole.state)
    assert ledger_memo.state_of(raw + b"\n", name) is None


def test_the_agreements_kept_stay_within_their_bound(monkeypatch):
    """Past KEPT_BYTES the memo starts over; a document over a sixteenth of it is never kept (read again instead)."""
    from harness.store import commit_docs

    monkeypatch.setattr(context, "_PROCESS", None)
    monkeypatch.setattr(commit_docs, "KEPT_BYTES", 16_000)
    finding = {"id": "F-0001", "status": "PROPOSED"}
    commit_docs.agreed("a/findings/F-0001.yaml", "1" * 40, finding, {"title": "x" * 5_000})  # over 16,000 / 16
    assert context.process().agreed == {}
    for n in range(40):
        commit_docs.agreed(f"a/findings/F-{n:04d}.yaml", f"{n:040d}", finding, {"title": "x" * 200})
        assert context.process().agreed_bytes <= 16_000
    assert 0 < len(context.process().agreed) < 40
    last = f"a/findings/F-{39:04d}.yaml"
    assert commit_docs.agreeing(last, f"{39:040d}", dict(finding)) == {"title": "x" * 200}
    assert commit_docs.agreeing(last, f"{39:040d}", {**finding, "status": "CONFIRMED"}) is None  # not equal: read
