"""The hash-chained ledger, its replay through the state machine, and the projection compare (pure)."""

from __future__ import annotations

import hashlib
import json

import pytest

from harness.core import ledger, projection
from harness.core.ledger import LedgerProblem, parse_lines, replay

TID = "TASK-20250101-abcdef"
TS = "2025-01-01T00:00:00Z"
ZEROS = "0" * 64


def build(*events: tuple[str, dict]) -> bytes:
    """Ledger bytes for ``events`` with a correct chain, as the CLI would write them."""
    prev, lines = ZEROS, []
    for seq, (etype, data) in enumerate(events, start=1):
        line = ledger.encode_event(seq, TS, etype, data, prev)
        lines.append(line)
        prev = hashlib.sha256(line.encode()).hexdigest()
    return "".join(f"{line}\n" for line in lines).encode()


def created(max_iterations: int = 5) -> tuple[str, dict]:
    return ("task.created", {"id": TID, "title": "t", "description": "", "max_iterations": max_iterations,
                             "base_commit": None})


def moved(a: str, b: str, **extra) -> tuple[str, dict]:
    return ("task.transitioned", {"from": a, "to": b, "reason": None, **extra})


def run(raw: bytes) -> ledger.Projection:
    return replay([e for _, e in parse_lines(raw, "events.jsonl")])


WALK = [moved("CREATED", "SPECIFYING"), moved("SPECIFYING", "PLANNED"), moved("PLANNED", "IMPLEMENTING"),
        moved("IMPLEMENTING", "VERIFYING"), moved("VERIFYING", "REVIEWING"), moved("REVIEWING", "GATING")]


# -- the chain ----------------------------------------------------------------------------

def test_each_event_has_seq_ts_type_data_prev_and_prev_is_sha256_of_previous_line():
    raw = build(created(), *WALK)
    lines = raw.decode().splitlines()
    prev = ZEROS
    for n, line in enumerate(lines, start=1):
        event = json.loads(line)
        assert set(event) == {"seq", "ts", "type", "data", "prev"}
        assert event["seq"] == n
        assert event["prev"] == prev
        prev = hashlib.sha256(line.encode("utf-8")).hexdigest()
    assert ledger.line_hash(lines[-1]) == prev
    assert [line for line, _ in parse_lines(raw, "events.jsonl")] == lines


def test_replay_of_a_legal_history_gives_the_state():
    proj = run(build(created(), *WALK))
    assert (proj.id, proj.state, proj.iteration, proj.seq) == (TID, "GATING", 0, 7)
    assert proj.created_at == TS and proj.updated_at == TS


def test_a_rewritten_earlier_line_is_named_by_line_number():
    lines = build(created(), *WALK).decode().splitlines(keepends=True)
    event = json.loads(lines[2])
    event["ts"] = "2030-01-01T00:00:00Z"  # still canonical, still legal: only the chain can tell
    lines[2] = ledger.canonical(event) + "\n"
    with pytest.raises(LedgerProblem) as exc:
        parse_lines("".join(lines).encode(), "events.jsonl")
    message = str(exc.value)
    assert "events.jsonl:4" in message
    assert "hash chain" in message and "line 3" in message


def test_a_truncated_last_line_is_refused():
    raw = build(created(), *WALK)
    with pytest.raises(LedgerProblem, match="incomplete"):
        parse_lines(raw[:-20], "events.jsonl")


def test_a_missing_trailing_newline_is_refused():
    with pytest.raises(LedgerProblem, match="incomplete"):
        parse_lines(build(created())[:-1], "events.jsonl")


def test_a_line_that_is_not_json_is_named():
    raw = build(created()) + b"{not json\n"
    with pytest.raises(LedgerProblem, match=r"events\.jsonl:2: not a JSON event"):
        parse_lines(raw, "events.jsonl")


def test_an_event_with_an_extra_key_is_refused():
    line = json.dumps({"seq": 1, "ts": TS, "type": "task.created", "data": created()[1], "prev": ZEROS,
                       "extra": 1}, sort_keys=True, separators=(",", ":"))
    with pytest.raises(LedgerProblem, match="exactly seq, ts, type, data, prev"):
        parse_lines((line + "\n").encode(), "events.jsonl")


def test_a_wrong_seq_is_refused():
    line = ledger.encode_event(2, TS, *created(), ZEROS)
    with pytest.raises(LedgerProblem, match="seq is 2, expected 1"):
        parse_lines((line + "\n").encode(), "events.jsonl")


def test_a_non_canonical_line_is_refused():
    event = json.loads(ledger.encode_event(1, TS, *created(), ZEROS))
    line = json.dumps(event, indent=None)  # key order and spaces differ from canonical JSON
    assert line != ledger.canonical(event)
    with pytest.raises(LedgerProblem, match="canonical"):
        parse_lines((line + "\n").encode(), "events.jsonl")


def test_an_empty_ledger_parses_to_nothing():
    assert parse_lines(b"", "events.jsonl") == []


# -- replay applies the state machine's rules ---------------------------------------------

def test_an_appended_illegal_transition_with_a_correct_chain_is_refused_naming_the_rule():
    raw = build(created(), moved("CREATED", "SPECIFYING"), moved("SPECIFYING", "PLANNED"),
                moved("PLANNED", "IMPLEMENTING"), moved("IMPLEMENTING", "DONE"))
    parse_lines(raw, "events.jsonl")  # the chain itself is fine
    with pytest.raises(LedgerProblem) as exc:
        run(raw)
    assert "events.jsonl:5" in str(exc.value)
    assert "INVALID TRANSITION: IMPLEMENTING → DONE" in str(exc.value)


def test_a_transition_whose_from_is_not_the_current_state_is_refused():
    with pytest.raises(LedgerProblem, match="transition from PLANNED but the task is CREATED"):
        run(build(created(), moved("PLANNED", "IMPLEMENTING")))


def test_the_first_event_must_be_task_created():
    with pytest.raises(LedgerProblem, match=r"first event must be task\.created"):
        run(build(moved("CREATED", "SPECIFYING")))


def test_task_created_only_once():
    with pytest.raises(LedgerProblem, match="only once"):
        run(build(created(), created()))


def test_unknown_event_type_is_refused():
    with pytest.raises(LedgerProblem, match="unknown event type"):
        run(build(created(), ("task.deleted", {})))


def test_malformed_event_data_is_a_ledger_problem_not_a_crash():
    with pytest.raises(LedgerProblem, match="malformed data"):
        run(build(created(), ("task.transitioned", {"to": "SPECIFYING"})))


def test_replay_counts_iterations_on_gating_to_blocked():
    raw = build(created(), *WALK, moved("GATING", "BLOCKED"), moved("BLOCKED", "IMPLEMENTING"),
                moved("IMPLEMENTING", "VERIFYING"), moved("VERIFYING", "REVIEWING"), moved("REVIEWING", "GATING"),
                moved("GATING", "BLOCKED"))
    proj = run(raw)
    assert (proj.state, proj.iteration) == ("BLOCKED", 2)


def test_replay_refuses_leaving_blocked_at_max_iterations():
    raw = build(created(max_iterations=1), *WALK, moved("GATING", "BLOCKED"), moved("BLOCKED", "IMPLEMENTING"))
    with pytest.raises(LedgerProblem, match="INVALID TRANSITION: BLOCKED → IMPLEMENTING"):
        run(raw)


def test_replay_refuses_escalation_without_a_code_and_accepts_one_with_a_code():
    base = [created(), *WALK, moved("GATING", "BLOCKED")]
    with pytest.raises(LedgerProblem, match="reason code"):
        run(build(*base, ("task.transitioned", {"from": "BLOCKED", "to": "ESCALATED", "reason": "tired"})))
    proj = run(build(*base, ("task.transitioned", {"from": "BLOCKED", "to": "ESCALATED",
                                                   "reason": "REVIEW_DISAGREEMENT: reviewers split"})))
    assert proj.state == "ESCALATED"


def test_a_finished_tasks_record_is_closed():
    base = [created(), *WALK, moved("GATING", "BLOCKED"),
            ("task.transitioned", {"from": "BLOCKED", "to": "ESCALATED", "reason": "SPEC_AMBIGUITY: x"})]
    for extra in (("requirement.added", {"id": "REQ-001", "statement": "s", "priority": "must", "source": "user"}),
                  moved("ESCALATED", "IMPLEMENTING")):
        with pytest.raises(LedgerProblem, match="ESCALATED"):
            run(build(*base, extra))


def gate_event(verdict: str, tree: str = "t1", policy: str = "p1") -> tuple[str, dict]:
    return ("gate.evaluated", {"verdict": verdict, "tree": tree, "policy": policy, "head": None, "blockers": []})


def test_gating_to_converged_in_the_ledger_needs_a_recorded_pass_for_the_same_tree():
    base = [created(), *WALK]
    with pytest.raises(LedgerProblem, match="no gate evaluation recorded"):
        run(build(*base, moved("GATING", "CONVERGED", tree="t1", policy="p1")))
    with pytest.raises(LedgerProblem, match="was BLOCKED"):
        run(build(*base, gate_event("BLOCKED"), moved("GATING", "CONVERGED", tree="t1", policy="p1")))
    with pytest.raises(LedgerProblem, match="tree"):
        run(build(*base, gate_event("PASS"), moved("GATING", "CONVERGED", tree="t2", policy="p1")))
    with pytest.raises(LedgerProblem, match=r"gate\.yaml changed"):
        run(build(*base, gate_event("PASS"), moved("GATING", "CONVERGED", tree="t1", policy="p2")))
    proj = run(build(*base, gate_event("PASS"), moved("GATING", "CONVERGED", tree="t1", policy="p1"),
                     moved("CONVERGED", "DONE", tree="t1", policy="p1")))
    assert proj.state == "DONE"


def test_a_change_after_the_gate_pass_invalidates_it():
    raw = build(created(), *WALK, gate_event("PASS"),
                ("requirement.added", {"id": "REQ-001", "statement": "s", "priority": "must", "source": "user"}),
                moved("GATING", "CONVERGED", tree="t1", policy="p1"))
    with pytest.raises(LedgerProblem, match="changed after the last gate PASS"):
        run(raw)


def test_projection_gate_pass_for_reports_why():
    proj = run(build(created(), *WALK))
    assert proj.gate_pass_for("t1", "p1") == (False, "no gate evaluation recorded")
    proj = run(build(created(), *WALK, gate_event("PASS")))
    assert proj.gate_pass_for("t1", "p1")[0] is True
    assert proj.gate_pass_for("t2", "p1")[0] is False
    assert proj.gate_pass_for(None, "p1")[0] is False


# -- requirements and invariants in the ledger --------------------------------------------

def req(rid: str, priority: str = "must", source: str = "user") -> tuple[str, dict]:
    return ("requirement.added", {"id": rid, "statement": f"statement {rid}", "priority": priority, "source": source})


def test_duplicate_requirement_ids_are_refused():
    with pytest.raises(LedgerProblem, match="REQ-001 already exists"):
        run(build(created(), req("REQ-001"), req("REQ-001")))


def test_a_wrong_priority_enum_in_the_ledger_is_refused():
    with pytest.raises(LedgerProblem, match="priority 'urgent'"):
        run(build(created(), req("REQ-001", priority="urgent")))


def test_verified_without_evidence_is_refused_in_replay():
    with pytest.raises(LedgerProblem, match="verified needs at least one evidence"):
        run(build(created(), req("REQ-001"), ("requirement.set", {"id": "REQ-001", "status": "verified",
                                                                  "evidence": []})))


def test_setting_an_unknown_requirement_is_refused():
    with pytest.raises(LedgerProblem, match="REQ-009 does not exist"):
        run(build(created(), ("requirement.set", {"id": "REQ-009", "status": "implemented", "evidence": []})))


def test_invariant_add_and_set_replay():
    proj = run(build(created(), ("invariant.added", {"id": "INV-001", "statement": "never lose data",
                                                     "category": "recovery", "severity": "critical"}),
                     ("invariant.set", {"id": "INV-001", "status": "violated", "evidence": []})))
    assert proj.invariants["INV-001"]["status"] == "violated"
    with pytest.raises(LedgerProblem, match="severity 'fatal'"):
        run(build(created(), ("invariant.added", {"id": "INV-001", "statement": "s", "category": "c",
                                                  "severity": "fatal"})))


# -- rendering and comparing projections --------------------------------------------------

def test_task_doc_renders_the_lifecycle_fields_from_the_ledger():
    proj = run(build(created(max_iterations=3), *WALK, moved("GATING", "BLOCKED"), req("REQ-001"),
                     req("REQ-002", priority="could")))
    doc = projection.task_doc(proj)["task"]
    assert (doc["id"], doc["state"], doc["iteration"], doc["max_iterations"]) == (TID, "BLOCKED", 1, 3)
    assert doc["requirements"] == {"total": 2, "verified": 0, "uncovered": ["REQ-001"]}
    assert set(doc) >= {"id", "title", "description", "state", "iteration", "max_iterations", "spec",
                        "requirements", "invariants", "verification", "findings", "gate", "git", "timestamps"}


def test_compare_names_file_field_both_values_and_the_command():
    proj = run(build(created(), moved("CREATED", "SPECIFYING")))
    expected = projection.task_doc(proj)
    found = json.loads(json.dumps(expected))
    found["task"]["state"] = "DONE"
    found["task"]["iteration"] = 4
    found["task"]["bogus"] = 1
    del found["task"]["title"]
    dis = {d.field: d for d in projection.compare("task.yaml", expected, found)}
    assert set(dis) == {"task.state", "task.iteration", "task.bogus", "task.title"}
    state = dis["task.state"]
    assert (state.file, state.ledger, state.found) == ("task.yaml", "SPECIFYING", "DONE")
    assert "harness transition" in state.command
    text = state.message()
    assert "task.yaml" in text and "task.state" in text and "SPECIFYING" in text and "DONE" in text
    assert "harness transition" in text
    assert (dis["task.iteration"].ledger, dis["task.iteration"].found) == (0, 4)
    assert dis["task.bogus"].ledger == "<absent>" and dis["task.title"].found == "<missing>"


def test_compare_matches_requirement_lists_by_id_not_position():
    proj = run(build(created(), req("REQ-001"), req("REQ-002")))
    expected = projection.requirements_doc(proj)
    found = {"requirements": list(reversed(expected["requirements"]))}
    assert projection.compare("requirements.yaml", expected, found) == []
    found["requirements"][0] = {**found["requirements"][0], "status": "verified"}
    dis = projection.compare("requirements.yaml", expected, found)
    assert [(d.field, d.ledger, d.found) for d in dis] == [("requirements.REQ-002.status", "pending", "verified")]
    assert "harness requirement set" in dis[0].command


def test_compare_reports_duplicate_ids_in_the_file():
    proj = run(build(created(), req("REQ-001"), req("REQ-002")))
    expected = projection.requirements_doc(proj)
    first = expected["requirements"][0]
    dis = projection.compare("requirements.yaml", expected, {"requirements": [first, dict(first)]})
    assert dis and dis[0].field == "requirements"


def test_a_hand_edited_max_iterations_is_not_blamed_on_iteration_counting():
    # max_iterations is fixed at task creation; no transition changes it, so the remedy
    # printed for it must not be the one for `iteration`.
    proj = run(build(created(max_iterations=3)))
    expected = projection.task_doc(proj)
    found = json.loads(json.dumps(expected))
    found["task"]["max_iterations"] = 50
    (dis,) = projection.compare("task.yaml", expected, found)
    assert dis.field == "task.max_iterations" and (dis.ledger, dis.found) == (3, 50)
    assert dis.command != projection.FIX_COMMANDS["iteration"], dis.message()
