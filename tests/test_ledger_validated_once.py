"""A ledger validated once per process, an appended suffix checked against the validated prefix:
the same lines, projection and refusals as validating the whole file every time."""

from __future__ import annotations

import json

import pytest

from harness import context
from harness.core.ledger import encode_event, line_hash
from harness.errors import HarnessError
from harness.store import ledger_memo, reader

from support.gitrepo import commit_all_ok, git
from support.records import ledger_bytes

NAME = ".harness/tasks/T/events.jsonl"


def _cold(raw: bytes) -> tuple[list[str], object] | str:
    """The full path: nothing remembered."""
    ledger_memo.forget()
    try:
        return reader.parse_ledger(raw, NAME)
    except HarnessError as exc:
        return exc.render()
    finally:
        ledger_memo.forget()


def _warm(prefix: bytes, raw: bytes) -> tuple[list[str], object] | str:
    """``prefix`` validated first (and remembered), then ``raw``."""
    ledger_memo.forget()
    reader.parse_ledger(prefix, NAME)
    try:
        return reader.parse_ledger(raw, NAME)
    except HarnessError as exc:
        return exc.render()
    finally:
        ledger_memo.forget()


def _appended(raw: bytes, etype: str, data: dict, seq_shift: int = 0, prev: str | None = None) -> bytes:
    lines = raw.decode().splitlines()
    last = json.loads(lines[-1])
    line = encode_event(last["seq"] + 1 + seq_shift, last["ts"], etype, data, prev or line_hash(lines[-1]))
    return raw + line.encode() + b"\n"


@pytest.fixture
def grown(h, task) -> tuple[bytes, bytes]:
    """(a task's ledger, the same ledger after three more commands)."""
    before = ledger_bytes(h.root, task)
    h.ok("requirement", "add", "It works", "--priority", "must")
    h.ok("requirement", "add", "It keeps working", "--priority", "should")
    h.ok("invariant", "add", "Nothing is lost", "--category", "correctness", "--severity", "major")
    return before, ledger_bytes(h.root, task)


def test_an_extended_ledger_gives_the_lines_and_projection_of_a_full_validation(grown):
    before, after = grown
    assert _warm(before, after) == _cold(after)
    middle = after[:after.index(b"\n", len(before)) + 1]  # one appended line
    assert _warm(before, middle) == _cold(middle)
    assert _warm(middle, after) == _cold(after)


def test_the_same_bytes_again_give_the_same_answer(grown):
    _, after = grown
    assert _warm(after, after) == _cold(after)


@pytest.mark.parametrize("broken", ["chain", "seq", "rule", "schema", "no-newline", "not-json"])
def test_an_appended_suffix_is_refused_as_the_full_path_refuses_it(grown, broken):
    before, _ = grown
    if broken == "chain":
        raw = _appended(before, "invariant.added", {"id": "INV-009", "statement": "x"}, prev="0" * 64)
    elif broken == "seq":
        raw = _appended(before, "invariant.added", {"id": "INV-009", "statement": "x"}, seq_shift=1)
    elif broken == "rule":
        raw = _appended(before, "task.transitioned", {"from": "NEW", "to": "DONE"})
    elif broken == "schema":
        raw = _appended(before, "requirement.added", {"id": "REQ-009", "priority": "must", "source": "user",
                                                      "statement": "x", "unknown": 1})
    elif broken == "no-newline":
        raw = _appended(before, "invariant.added", {"id": "INV-009", "statement": "x"})[:-1]
    else:
        raw = before + b"{not json\n"
    cold = _cold(raw)
    assert isinstance(cold, str), cold  # the full path refuses it
    assert _warm(before, raw) == cold


@pytest.mark.parametrize("how", ["content", "form"])
def test_a_rewritten_prefix_is_validated_whole_and_still_refused(grown, how):
    before, after = grown
    if how == "content":  # still canonical JSON: the next line's hash no longer matches
        rewritten = after.replace(b"It works", b"It fails", 1)
    else:  # no longer canonical
        rewritten = after.replace(b'"seq":', b'"seq": ', 2)
    cold = _cold(rewritten)
    assert isinstance(cold, str), cold
    assert _warm(before, rewritten) == cold
    assert _warm(after, rewritten) == cold


def test_a_caller_changing_what_it_was_handed_changes_no_later_answer(grown):
    _, after = grown
    ledger_memo.forget()
    lines, proj = reader.parse_ledger(after, NAME)
    expected = _cold(after)
    reader.parse_ledger(after, NAME)
    lines.append("changed")
    proj.state = "DONE"
    proj.requirements.clear()
    try:
        assert reader.parse_ledger(after, NAME) == expected
    finally:
        ledger_memo.forget()


def test_an_audit_over_appends_refuses_a_rewritten_ledger_line(h, task):
    """Through git: the commit that rewrites a committed line is refused even after the audit has
    validated (and remembered) the ledger it rewrites."""
    h.ok("requirement", "add", "It works", "--priority", "must")
    start = commit_all_ok(h.root, "task")
    h.ok("requirement", "add", "It keeps working", "--priority", "should")
    commit_all_ok(h.root, "append")
    path = h.root / ".harness/tasks" / task / "events.jsonl"
    text = path.read_text().replace("It works", "It fails", 1)
    path.write_text(text)
    git(h.root, "commit", "-qam", "rewrite", "--no-verify")
    result = h("audit", "--from", start, "--to", "HEAD")
    assert result.code == 1
    assert "ledger-append-only" in result.text and "line" in result.text


def test_an_audit_over_appends_passes_what_it_passed_before(h, task):
    """The legitimate history: appends only, each commit checked; nothing refused."""
    start = commit_all_ok(h.root, "task")
    for n in range(3):
        h.ok("requirement", "add", f"It works {n}", "--priority", "must")
        commit_all_ok(h.root, f"append {n}")
    result = h("audit", "--from", start, "--to", "HEAD")
    assert result.code == 0, result.text
    assert "3 commit(s) checked, no problems" in result.text


def test_a_valid_ledger_is_judged_without_walking_the_schema_for_what_is_wrong(grown, monkeypatch):
    """The walk that names a problem runs only for a document that has one (#28 item 4: an audit reads a
    10,000-event ledger whole, and walking the event schema for every valid event made 22 → 10,000 events
    cost more than 5x): a valid ledger is judged by the schema's compiled predicate alone, an invalid one
    still gets the walk's message."""
    from harness.store.schema_check import Validator

    walks: list[object] = []
    walk = Validator.problems
    monkeypatch.setattr(Validator, "problems", lambda self, doc: walks.append(doc) or walk(self, doc))
    _, after = grown
    context.process().valid_digests.clear()  # what the commands that wrote it checked: judged afresh here
    lines, _ = _cold(after)
    assert len(lines) == after.count(b"\n") == 4 and walks == []
    broken = _appended(after, "requirement.added",
                       {"id": "REQ-009", "statement": "x", "priority": "must", "source": "user", "by": 1})
    assert "unknown field(s) by" in _cold(broken) and len(walks) == 1
