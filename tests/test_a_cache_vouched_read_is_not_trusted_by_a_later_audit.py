"""What a read took on a cache's word stays that cache's: the commit hook reads the index through the checkout's cache
of valid digests (`.harness/local/valid`), which skips the schema check for the bytes it lists; `harness audit` names
no cache so as to trust nothing the checkout holds (F-0147). A process that runs the hook's check and then an audit (an
embedding program, the in-process test suite) must not hand the audit what the hook's cache vouched for: not a
ledger (ledger_memo, self-found 36: F-0167), not a finding file found to agree (commit_docs, read 178: F-0166)."""

from __future__ import annotations

import json

import pytest

from harness import context
from harness.core.chain import encode_event, line_hash
from harness.history.hook_checks import hook_git, staged_problems
from harness.store import validate
from harness.store.layout import open_layout
from harness.store.tasks import TaskStore

from support.gitrepo import commit_all_ok, git, head

FINDING = ("finding.proposed", {"id": "F-0001", "content": {
    "severity": "minor", "category": "correctness", "title": "t", "claim": "c", "failure_scenario": ["s"],
    "expected_behavior": "e", "location": {"file": "src/w.py", "line": 1},
    "recommended_reproducer": {"type": "unit_test", "description": "d", "command": "true"}}})


def _vouched(repo, path, schema: str) -> None:
    """``path``'s bytes listed in the checkout's cache as valid for ``schema``, and everything staged."""
    (repo / ".harness/local").mkdir(parents=True, exist_ok=True)
    with open(repo / ".harness/local/valid", "a") as cache:
        cache.write(validate._key(schema, path.read_bytes()) + "\n")
    git(repo, "add", "-A")


def _hook_then_audit(h, repo, base: str, monkeypatch) -> tuple[set[str], set[str]]:
    """(the rules the hook's check names, those `harness audit` names at the commit), both in one fresh process."""
    monkeypatch.setattr(context, "_PROCESS", None)  # the cache's listing read afresh, nothing remembered
    hook = {p.rule for p in staged_problems(hook_git(repo))}
    commit = commit_all_ok(repo, "taken on the cache's word", "--no-verify")
    doc = json.loads(h("audit", "--from", base, "--to", "HEAD", "--json").out)
    return hook, {p["rule"] for row in doc["results"] if row["commit"] == commit for p in row["problems"]}


@pytest.fixture
def store(h, repo, monkeypatch) -> TaskStore:
    monkeypatch.chdir(repo)
    return TaskStore(open_layout(repo))


def test_a_finding_file_the_hook_s_cache_vouched_for_is_read_again_by_a_later_audit(h, repo, store, monkeypatch):
    tid = store.create("T", "d", 5, None)
    store.append(tid, [FINDING])
    base = commit_all_ok(repo, "a task with a finding")
    finding = repo / f".harness/tasks/{tid}/findings/F-0001.yaml"
    finding.write_text(finding.read_text().replace("line: 1\n", "line: true\n"))  # no integer; == 1 in Python
    _vouched(repo, finding, "finding")
    hook, audit = _hook_then_audit(h, repo, base, monkeypatch)
    assert hook == set()  # the hook takes its own cache's word, as before
    assert "valid-ledger-and-files" in audit


def test_a_ledger_the_hook_s_cache_vouched_for_is_validated_again_by_a_later_audit(h, repo, store, monkeypatch):
    base = head(repo)
    tid = store.create("T", "d", 5, None)
    store.append(tid, [("requirement.added", {"id": "REQ-001", "priority": "must", "source": "user",
                                              "statement": "works"})])
    path = repo / f".harness/tasks/{tid}/events.jsonl"
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    smuggled = encode_event(last["seq"] + 1, last["ts"], "requirement.set",  # the rules accept it; the schema does not
                            {"id": "REQ-001", "status": "pending", "evidence": [], "smuggled": "x"},
                            line_hash(lines[-1]))
    path.write_text("\n".join([*lines, smuggled]) + "\n")
    _vouched(repo, path, "event")
    hook, audit = _hook_then_audit(h, repo, base, monkeypatch)
    assert hook == set()
    assert "valid-ledger-and-files" in audit


def test_an_audit_after_an_audit_still_reads_each_finding_file_once(h, repo, store, monkeypatch):
    """The legitimate reuse stays: what a read without a cache checked serves every later reader."""
    tid = store.create("T", "d", 5, None)
    store.append(tid, [FINDING])
    base = commit_all_ok(repo, "a task with a finding")
    store.append(tid, [("requirement.added", {"id": "REQ-001", "priority": "must", "source": "user",
                                              "statement": "works"})])
    commit_all_ok(repo, "one event more")
    monkeypatch.setattr(context, "_PROCESS", None)
    h.ok("audit", "--from", base, "--to", "HEAD")
    assert any(key[0].endswith("/findings/F-0001.yaml") for key in context.process().agreed)
