"""Every ledger event's data has a JSON Schema (no unknown keys, exact types), checked by
replay and every command that reads a ledger, by the commit guard and by the push guard;
`replay --write` never renders a file the file schemas refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import resources
from harness.core import replay, states
from harness.core.evidence_types import EVIDENCE_TYPES, PATTERN
from harness.store import validate

from support.cli import walk_to
from support.gitrepo import commit_all_ok, git, out, push, refused_commit, remote_ref
from support.records import append_event, rechain


def tdir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def test_every_event_type_has_a_data_schema_and_the_enums_match_the_core():
    schema = resources.schema("event")
    assert set(schema["$defs"]) == set(replay._HANDLERS)
    defs = schema["$defs"]
    assert defs["task.transitioned"]["properties"]["to"]["enum"] == list(states.STATES)
    assert defs["evidence.collected"]["properties"]["type"]["pattern"] == PATTERN
    for etype, sub in defs.items():
        if sub.get("properties"):
            assert sub["additionalProperties"] is False, etype


def test_every_schema_speaks_of_evidence_types_with_the_cores_one_rule():
    # Each place a schema names an evidence type uses evidence_types.PATTERN, and that pattern
    # accepts exactly what the core's is_evidence_type does.
    import json
    import re

    from harness.core.evidence_types import is_evidence_type

    texts = {name: json.dumps(resources.schema(name)) for name in ("event", "evidence", "config", "gate", "task",
                                                                    "requirement", "invariant", "contract")}
    assert [n for n, text in texts.items() if json.dumps(PATTERN) not in text] == []
    pattern = re.compile(PATTERN)
    for value in [*EVIDENCE_TYPES, "custom.perf", "custom.a1_b", "custom." + "x" * 40, "custom." + "x" * 41, "custom.",
                  "custom.Perf", "custom.x.y", "custom.../x", "build.x", "custom.x\n", "\nbuild", "", "Build"]:
        assert bool(pattern.search(value)) == is_evidence_type(value), value


def test_events_the_cli_writes_pass_their_schemas(h, repo, task):
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    h.ok("invariant", "add", "No lost writes", "--category", "recovery", "--severity", "major")
    h.ok("evidence", "unit_test", "--", "true")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "SPECIFYING")
    for line in (tdir(repo, task) / "events.jsonl").read_text().splitlines():
        assert validate.event_problem(json.loads(line)) is None, line


WRONG = {
    "a boolean where an evidence reference belongs": (
        "requirement.set", {"id": "REQ-001", "status": "implemented", "evidence": [True]},
        ("data.evidence[0]", "evidence must be a list of evidence types")),
    "an unknown key in the data": (
        "requirement.set", {"id": "REQ-001", "status": "implemented", "evidence": [], "note": "x"},
        ("unknown field(s) note",)),
    "a number where a statement belongs": (
        "requirement.added", {"id": "REQ-002", "statement": 7, "priority": "must", "source": "user"},
        ("data.statement", "statement must be non-empty text")),
    "a list where a reason belongs": (
        "task.transitioned", {"from": "CREATED", "to": "SPECIFYING", "reason": ["x"]}, ("data.reason",)),
}


@pytest.mark.parametrize("case", WRONG)
def test_a_schema_breaking_event_is_refused_by_status_replay_and_gate(h, repo, task, case):
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    etype, data, fields = WRONG[case]  # named by the schema, or by a core rule in its own words
    append_event(repo, task, etype, data)
    n = len((tdir(repo, task) / "events.jsonl").read_text().splitlines())
    for args in (("status",), ("replay",), ("replay", "--write"), ("gate",)):
        r = h(*args)
        assert r.code == 2, (args, r.text)
        assert f".harness/tasks/{task}/events.jsonl:{n}:" in r.text and any(f in r.text for f in fields), (args, r.text)
        assert "Traceback" not in r.text


def test_a_wrong_envelope_type_is_refused(h, repo, task):
    path = tdir(repo, task) / "events.jsonl"
    rechain(path, lambda events: events[0].__setitem__("ts", 12))
    r = h("replay")
    assert r.code == 2 and "events.jsonl:1: field ts" in r.err, r.text


def test_contract_and_finding_content_are_checked_against_their_own_schemas(h, repo, task):
    content = {"type": "question", "severity": "minor", "category": "correctness", "title": "x", "claim": "y",
               "failure_scenario": ["z"], "expected_behavior": "w", "surplus": 1}
    append_event(repo, task, "finding.proposed", {"id": "F-0001", "content": content})
    r = h("replay")
    assert r.code == 2 and "data.content:" in r.err, r.text  # the proposal schema, not the rules


def test_replay_write_refuses_to_render_a_file_its_schema_refuses(h, repo, task, monkeypatch):
    from harness.store import reader

    real = reader.render

    def broken(t):
        docs = real(t)
        docs["task.yaml"]["task"]["iteration"] = -1  # what a projection bug would produce
        return docs

    monkeypatch.setattr(reader, "render", broken)
    path = tdir(repo, task) / "task.yaml"
    before = path.read_bytes()
    path.write_text(path.read_text().replace("title: Add resumable execution", "title: edited"))
    r = h("replay", "--write")
    assert r.code == 2 and "the change would leave a file no reader accepts" in r.text and "iteration" in r.text, r.text
    assert path.read_bytes() != before and b"iteration: -1" not in path.read_bytes()


@pytest.fixture
def guarded(h, repo, tmp_path):
    """``repo`` with native hooks, .harness/ committed and a bare remote."""
    h.ok("install")
    commit_all_ok(repo, "harness init")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "main")
    return remote


@pytest.mark.e2e  # a real commit through the installed native hooks
def test_the_commit_guard_refuses_an_event_with_an_unknown_key(h, repo, guarded):
    tid = h.ok("task", "new", "Schemas").out.strip()
    commit_all_ok(repo, "task")
    append_event(repo, tid, "task.transitioned", {"from": "CREATED", "to": "SPECIFYING", "reason": None, "x": 1})
    git(repo, "add", "-A")
    text = refused_commit(repo, "smuggle a field")
    assert f".harness/tasks/{tid}/events.jsonl:2" in text and "unknown field(s) x" in text, text


@pytest.mark.e2e  # a real push through the installed native pre-push hook
def test_the_push_guard_refuses_a_wrong_type_committed_with_no_verify(h, repo, guarded):
    tid = h.ok("task", "new", "Schemas").out.strip()
    commit_all_ok(repo, "task")
    before = remote_ref(guarded, "refs/heads/main")
    append_event(repo, tid, "task.transitioned", {"from": "CREATED", "to": "SPECIFYING", "reason": 5})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "wrong type", "--no-verify")
    p = push(repo)
    assert p.returncode != 0, out(p)
    assert f".harness/tasks/{tid}/events.jsonl:2" in out(p) and "data.reason" in out(p), out(p)
    assert remote_ref(guarded, "refs/heads/main") == before
