"""Every rule the CLI enforces is a rule of the ledger: replaying a hand-made ledger that
breaks it refuses with the very message the CLI refuses the command with."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.cli import Harness, walk_to
from support.records import append_event, ledger_bytes, write_ledger, write_yaml

PY = sys.executable
FINDING = {
    "type": "suspected_defect", "severity": "major", "category": "correctness",
    "title": "answer() is off by one", "claim": "answer() returns 42 where the requirement says 41",
    "location": {"file": "app.py", "line": 2}, "failure_scenario": ["call app.answer()"],
    "expected_behavior": "answer() returns 41",
    "recommended_reproducer": {"type": "unit_test", "description": "assert the value",
                               "command": [PY, "-c", "import app, sys; sys.exit(app.answer() != 41)"]},
}
CONTRACT = {"contract": {
    "acceptance_criteria": ["answer() returns 41"],
    "requirements": [{"statement": "answer() returns 41", "priority": "must", "verified_by": ["unit_test"]}],
}}


def nothing(h: Harness, repo: Path) -> None:
    pass


def with_requirement(h: Harness, repo: Path) -> None:
    h.ok("requirement", "add", "answer() returns 41", "--priority", "must")


def with_failed_build(h: Harness, repo: Path) -> None:
    with_requirement(h, repo)
    assert h("evidence", "build", "--", PY, "-c", "raise SystemExit(3)").code == 3


def with_finding(h: Harness, repo: Path) -> None:
    h.ok("finding", "propose", "--file", str(write_yaml(repo.parent / "inbox" / "f.yaml", FINDING)))


def with_refuting_attempt(h: Harness, repo: Path) -> None:
    with_finding(h, repo)
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "reproduce", "F-0001")  # the reviewer's reproducer passes: an attempt


def specifying(h: Harness, repo: Path) -> None:
    walk_to(h, "SPECIFYING")


@dataclass(frozen=True)
class Case:
    rule: str
    cli: tuple[str, ...]
    event: tuple[str, dict]
    setup: Callable[[Harness, Path], None] = nothing
    extra: dict = field(default_factory=dict)


CASES = [
    Case("invariant category is a lower-case ASCII word",
         ("invariant", "add", "x", "--category", "ünïcode", "--severity", "major"),
         ("invariant.added", {"id": "INV-001", "statement": "x", "category": "ünïcode", "severity": "major"})),
    Case("invariant category is not free text",
         ("invariant", "add", "x", "--category", "NOT A WORD!", "--severity", "major"),
         ("invariant.added", {"id": "INV-001", "statement": "x", "category": "NOT A WORD!", "severity": "major"})),
    Case("an invariant's statement is not empty",
         ("invariant", "add", "  ", "--category", "correctness", "--severity", "major"),
         ("invariant.added", {"id": "INV-001", "statement": "  ", "category": "correctness", "severity": "major"})),
    Case("a requirement's statement is not empty",
         ("requirement", "add", "", "--priority", "must"),
         ("requirement.added", {"id": "REQ-001", "statement": "", "priority": "must", "source": "user"})),
    Case("an item set must exist",
         ("requirement", "set", "REQ-009", "--status", "implemented"),
         ("requirement.set", {"id": "REQ-009", "status": "implemented", "evidence": []})),
    Case("verified needs evidence",
         ("requirement", "set", "REQ-001", "--status", "verified"),
         ("requirement.set", {"id": "REQ-001", "status": "verified", "evidence": []}), with_requirement),
    Case("verified needs collected evidence",
         ("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build"),
         ("requirement.set", {"id": "REQ-001", "status": "verified", "evidence": ["build"]}), with_requirement),
    Case("verified needs passing evidence",
         ("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build"),
         ("requirement.set", {"id": "REQ-001", "status": "verified", "evidence": ["build"]}), with_failed_build),
    Case("transitions follow the table",
         ("transition", "DONE"),
         ("task.transitioned", {"from": "CREATED", "to": "DONE", "reason": None})),
    Case("a contract starts a task",
         ("contract", "apply", "--file", "CONTRACT"),
         ("contract.applied", {"contract": {"acceptance_criteria": ["answer() returns 41"], "requirements": [
             {"id": "REQ-001", "statement": "answer() returns 41", "priority": "must", "source": "spec",
              "verified_by": ["unit_test"]}], "invariants": [], "risks": []}}), specifying),
    Case("a finding is closed only when verified",
         ("finding", "close", "F-0001"), ("finding.closed", {"id": "F-0001"}), with_finding),
    Case("a finding is marked fixed only while fixing",
         ("finding", "fixed", "F-0001"), ("finding.fixed", {"id": "F-0001", "commit": None}), with_finding),
    Case("a rejection needs a refuting run",
         ("finding", "reject", "F-0001", "--reason", "no"),
         ("finding.rejected", {"id": "F-0001", "reason": "no"}), with_finding),
    Case("a rejection needs a reason",
         ("finding", "reject", "F-0001", "--reason", " "),
         ("finding.rejected", {"id": "F-0001", "reason": " "}), with_refuting_attempt),
    Case("an unknown finding",
         ("finding", "close", "F-0009"), ("finding.closed", {"id": "F-0009"}), with_finding),
]


@pytest.mark.parametrize("case", CASES, ids=[c.rule for c in CASES])
def test_the_cli_and_replay_refuse_a_broken_rule_with_the_same_message(h, task, repo, tmp_path, case):
    case.setup(h, repo)
    cli = tuple(str(write_yaml(tmp_path / "contract.yaml", CONTRACT)) if a == "CONTRACT" else a for a in case.cli)
    before = ledger_bytes(repo, task)
    refused = h(*cli)
    assert refused.code == 1, refused.text
    assert ledger_bytes(repo, task) == before  # nothing written
    message = refused.err.splitlines()[0].removeprefix("harness: ")

    append_event(repo, task, *case.event)  # the same fact, written by hand
    replayed = h("replay")
    assert replayed.code == 2, replayed.text
    assert f"events.jsonl:{len(before.splitlines()) + 1}: {message}" in replayed.err
    assert h("status").code == 2


def test_an_empty_task_title_is_refused_by_the_cli_and_by_replay(h, repo):
    refused = h("task", "new", "   ")
    assert refused.code == 1 and not list((repo / ".harness" / "tasks").glob("TASK-*"))
    message = refused.err.splitlines()[0].removeprefix("harness: ")
    assert "title" in message
    tid = "TASK-20250101-abcdef"
    write_ledger(repo, tid, [("task.created", {"id": tid, "title": "   ", "description": "",
                                               "max_iterations": 5, "base_commit": None})])
    replayed = h("replay", "--task", tid)
    assert replayed.code == 2
    assert f"events.jsonl:1: {message}" in replayed.err


@pytest.mark.parametrize("args, hint", [
    (("invariant", "add", "x", "--category", "ünïcode", "--severity", "major"), "lower-case ASCII word"),
    (("requirement", "set", "REQ-001", "--status", "verified"), "harness evidence TYPE"),
    (("transition", "DONE"), "legal targets are: SPECIFYING"),
])
def test_a_refusal_from_the_core_reaches_the_user_with_its_hint(h, task, args, hint):
    h.ok("requirement", "add", "answer() returns 41", "--priority", "must")
    refused = h(*args)
    assert refused.code == 1
    [line] = [x for x in refused.err.splitlines() if "hint:" in x]
    assert hint in line


def test_a_category_in_unicode_leaves_the_task_readable(h, task):
    """The bug that started it: the CLI accepted a category the files' schema refuses, and from
    then on status and replay exited 2 on a ledger nothing could undo."""
    assert h("invariant", "add", "x", "--category", "ünïcode", "--severity", "major").code == 1
    assert h("status").code == 0 and h("replay").code == 0
    assert h("invariant", "add", "x", "--category", "state_machine", "--severity", "major").code == 0


def test_a_reproducer_that_never_ran_is_no_attempt_for_the_cli_nor_for_replay(h, task, repo):
    with_finding(h, repo)
    before = ledger_bytes(repo, task)
    refused = h("finding", "reproduce", "F-0001", "--", "definitely-not-a-command-xyz")
    assert refused.code == 1 and ledger_bytes(repo, task) == before
    message = refused.err.splitlines()[0].removeprefix("harness: ")
    assert "nothing is concluded" in message
    append_event(repo, task, "finding.reproduced", {
        "id": "F-0001", "command": "definitely-not-a-command-xyz", "argv": ["definitely-not-a-command-xyz"],
        "exit_code": None, "outcome": "not_found", "tree": None, "head": None, "output_tail": ""})
    replayed = h("replay")
    assert replayed.code == 2 and message in replayed.err


def test_a_rendered_file_its_schema_refuses_is_never_written(h, task, repo):
    """The last line of defence: whatever a rule misses, no command leaves a file `status` cannot read."""
    from harness.errors import Refused
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore, checked_render

    s = TaskStore(open_layout(repo))
    loaded = s.load(task)
    docs = s.render(loaded)
    checked_render(loaded, docs, repo / loaded.dir)  # as rendered: accepted
    docs["task.yaml"]["task"]["state"] = "FINISHED"
    with pytest.raises(Refused, match=r"task\.yaml.*FINISHED"):
        checked_render(loaded, docs, repo / loaded.dir)


UNSPLITTABLE = {**FINDING, "severity": "minor",
                "recommended_reproducer": {"type": "custom", "description": "d", "command": "echo 'unterminated"}}


def test_a_reproducer_command_no_shell_could_split_is_refused_at_any_severity_by_the_cli_and_by_replay(
        h, task, repo, tmp_path):
    before = ledger_bytes(repo, task)
    refused = h("finding", "propose", "--file", str(write_yaml(tmp_path / "f.yaml", UNSPLITTABLE)))
    assert refused.code == 2 and "Traceback" not in refused.text, refused.text
    assert "cannot be split into arguments (No closing quotation)" in refused.err
    assert ledger_bytes(repo, task) == before

    append_event(repo, task, "finding.proposed", {"id": "F-0001", "content": UNSPLITTABLE})
    replayed = h("replay")
    assert replayed.code == 2 and "cannot be split into arguments" in replayed.err, replayed.text


def test_a_stored_reproducer_no_shell_could_split_leaves_the_task_readable():
    # Written by a harness from before the rule: the commands that read it must not crash.
    from harness.core.findings import recommended_command, reproducer_problem

    assert recommended_command(UNSPLITTABLE) is None
    assert "No closing quotation" in (reproducer_problem(UNSPLITTABLE) or "")


def _contract_ledger(repo: Path, contract: dict, *added: dict) -> None:
    tid = "TASK-20260101-cccccc"
    write_ledger(repo, tid, [
        ("task.created", {"id": tid, "title": "t", "description": "", "max_iterations": 5, "base_commit": None}),
        ("contract.applied", {"contract": contract}), *(("requirement.added", a) for a in added)])


RECORDED = {"acceptance_criteria": ["a"], "invariants": [], "risks": [], "requirements": [
    {"id": "REQ-001", "statement": "s", "priority": "must", "source": "spec", "verified_by": ["build"]}]}


def test_replay_refuses_a_contract_whose_items_lack_the_ids_apply_gives_them(h, repo):
    # status and gate read the plan by id: a contract without them crashed both.
    bare = {"acceptance_criteria": ["a"], "requirements": [{"statement": "s", "priority": "must", "verified_by": ["build"]}]}
    _contract_ledger(repo, bare)
    r = h("replay", "--task", "TASK-20260101-cccccc")
    assert r.code == 2 and "not as `harness contract apply` records one" in r.err, r.text
    assert h("status", "--task", "TASK-20260101-cccccc").code == 2 and "Traceback" not in h("status").text


def test_replay_refuses_a_contract_item_added_as_another_requirement(h, repo):
    _contract_ledger(repo, RECORDED, {"id": "REQ-001", "statement": "other", "priority": "could", "source": "spec"})
    r = h("replay", "--task", "TASK-20260101-cccccc")
    assert r.code == 2 and "is not the requirement the applied contract names REQ-001" in r.err, r.text


def test_replay_accepts_the_contract_as_apply_records_it(h, repo):
    _contract_ledger(repo, RECORDED, {"id": "REQ-001", "statement": "s", "priority": "must", "source": "spec"})
    assert h("replay", "--write", "--task", "TASK-20260101-cccccc").code == 0
    assert h("status", "--task", "TASK-20260101-cccccc").code == 0


def test_a_change_that_would_render_a_file_over_the_readers_cap_is_refused_and_nothing_written(
        h, task, repo, monkeypatch):
    # YAML writes U+FEFF as a six-byte escape: text under the input cap rendered to twice the
    # file cap, and every later command refused the task for good.
    from harness.store import bounded

    monkeypatch.setitem(bounded.CAPS, "yaml", 4096)
    before = ledger_bytes(repo, task)
    r = h("requirement", "add", "x" + "\ufeff" * 1000, "--priority", "must")
    assert r.code == 1 and "requirements.yaml would be" in r.err and "nothing was written" in r.err, r.text
    assert ledger_bytes(repo, task) == before
    assert h("status").code == 0 and h("replay").code == 0
