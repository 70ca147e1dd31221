"""Gate blockers are data: `Next:` and convergence read a blocker's kind and subject, never its
sentence; `gate.evaluated` stores each blocker's key beside its text; and a ledger written before
keys were recorded (sentences only) still replays, its sentences classified as they are read."""

from __future__ import annotations

import copy

import pytest

from harness import resources
from harness.core import converge
from harness.core.blocker_text import classify
from harness.core.blockers import Blocker, evaluated_fields, from_event
from harness.core.gate import GateInput, evaluate
from harness.core.next_step import clearing, next_steps
from harness.store.settings import parse_gate

from support.cli import gate_json, walk_to
from support.flows import to_gating
from support.records import append_event, events

TREE, OTHER = "a" * 40, "b" * 40


def policy(**over) -> dict:
    doc = copy.deepcopy(parse_gate(resources.template("gate.yaml")).doc)
    for dotted, value in over.items():
        section, key = dotted.split("__")
        doc.setdefault(section, {})[key] = value
    return doc


def run(outcome: str = "passed", tree: str = TREE, **extra) -> dict:
    return {"outcome": outcome, "tree": tree, "exit_code": 0 if outcome == "passed" else 1, **extra}


def finding(fid: str, status: str, severity: str = "major", **extra) -> dict:
    return {"id": fid, "severity": severity, "status": status, "regression_test": None, "regression_fresh": None,
            "content": {"recommended_reproducer": {"command": "repro"}},
            "attempts": [{"command": "repro", "outcome": "passed", "tree": OTHER}], **extra}


def judged(**kw) -> list[Blocker]:
    base = dict(state="GATING", requirements=[], invariants=[], evidence={"build": run(), "unit_test": run()},
                pending={}, findings=[], policy=policy(), tree=TREE)
    base.update(kw)
    return evaluate(GateInput(**base)).blockers


def req(rid: str = "REQ-001", status: str = "verified", evidence=("unit_test",), **extra) -> dict:
    return {"id": rid, "priority": "must", "status": status, "evidence": list(evidence), **extra}


def every_kind_of_blocker() -> list[Blocker]:
    """The gate's blockers over inputs that raise (at least) one of each kind."""
    regression = {"path": "tests/t.py", "tests": ["tests.t::test_x"], "argv": ["pytest", "tests/t.py::test_x"]}
    return [
        *judged(state="IMPLEMENTING"),
        *judged(requirements=[req(status="pending"), req("REQ-002", evidence=["build", "integration_test"])],
                evidence={"build": run("failed"), "unit_test": run(tree=OTHER), "integration_test": run(tree_after=OTHER)},
                pending={}),
        *judged(requirements=[req(evidence=["unit_test"])], evidence={"build": run()}, pending={"unit_test": ["t0"]}),
        *judged(requirements=[req(), req("REQ-002", status="pending", evidence=[])], plan={"REQ-001": ["build"]},
                configured={"unit_test": ["make", "test"]}, evidence={"build": run(), "unit_test": run(argv=["true"],
                                                                                                    command="true")}),
        *judged(requirements=[req()], introduced=["unit_test"], policy=policy(requirements__must_have_tests=True)),
        *judged(requirements=[req(tests=["t.py::t"])], policy=policy(suite__test_type="unit_test")),
        *judged(requirements=[req(tests=["t.py::t"])], policy=policy(suite__test_type="unit_test"),
                cases={"unit_test": {"t.py::t": "failed"}}),
        *judged(invariants=[{"id": "INV-001", "severity": "major", "status": "violated", "evidence": []},
                            {"id": "INV-002", "severity": "major", "status": "verified", "evidence": ["unit_test"]}],
                evidence={"build": run(), "unit_test": run(tree=OTHER)}, plan={"INV-002": ["build"]}),
        *judged(findings=[finding("F-0001", "PROPOSED"), finding("F-0002", "REJECTED", severity="critical"),
                          finding("F-0003", "CONFIRMED", severity="minor"), finding("F-0004", "FIXING", severity="minor"),
                          finding("F-0005", "VERIFIED", severity="minor", regression_test="tests/t.py",
                                  regression_fresh=False)]),
        *judged(findings=[finding("F-0006", "VERIFIED", severity="minor", regression_test=regression)],
                policy=policy(suite__test_type="unit_test")),
    ]


def test_every_blocker_the_gate_gives_is_what_its_sentence_classifies_as():
    found = every_kind_of_blocker()
    kinds = {b.kind for b in found}
    assert len(kinds) >= 20, sorted(kinds)  # enough kinds for the comparison to mean something
    for b in found:
        assert classify(b.text) == b, b  # an old ledger's sentence reads back as the blocker the gate gives now


def test_a_sentence_no_rule_knows_is_kept_whole_enough_to_compare():
    b = classify("something new blocks: tree abc")
    assert (b.check, b.kind, b.subject) == ("unknown", "unknown", ("something new blocks",))
    assert classify("something new blocks: tree def").key == b.key


def test_next_reads_the_kind_and_subject_not_the_sentence():
    reworded = [Blocker("required_evidence", "evidence_stale", ("unit_test",), "the tests ran on older code"),
                Blocker("requirements_verified", "not_verified", ("REQ-002",), "nobody has proved the second one"),
                Blocker("major_findings", "finding_unrefuted", ("F-0002",), "a rejection that no longer holds"),
                Blocker("regression_verified", "regression_stale", ("F-0003",), "its regression run is old")]
    assert [s.command for b in reworded for s in clearing(b)] == [
        "harness evidence unit_test", "harness requirement set REQ-002 --status verified --evidence TYPE",
        "harness finding reproduce F-0002", "harness finding verify F-0003"]
    failing = Blocker("required_evidence", "evidence_fail", ("unit_test",), "unit_test evidence is stale: (sic)")
    assert clearing(failing) == []  # worded like a stale one, it is still a failure: no re-run clears it
    assert next_steps("GATING", [failing])[0].command == "harness converge --apply"


def keyed_iteration(*blockers: Blocker) -> list[dict]:
    return [{"type": "gate.evaluated", "data": {"verdict": "BLOCKED", **evaluated_fields(blockers)}},
            {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}}]


def test_convergence_compares_keys_so_a_reworded_blocker_is_the_same_blocker():
    events_ = []
    for n in range(3):  # the same problem, said three different ways
        events_ += keyed_iteration(Blocker("requirements_verified", "not_verified", ("REQ-001",), f"wording {n}"))
    code, detail = converge.stalled(events_, None, 2)
    assert code == "SPEC_AMBIGUITY" and "wording" in detail
    # the same words about a different requirement are a different blocker: the old one was cleared
    events_ += keyed_iteration(Blocker("requirements_verified", "not_verified", ("REQ-002",), "wording 2"))
    assert converge.stalled(events_, None, 1) is None


def test_findings_are_told_by_their_check_not_by_the_word_finding():
    said = Blocker("required_evidence", "evidence_fail", ("unit_test",), "unit_test evidence failed: finding nothing")
    events_ = [e for _ in range(3) for e in keyed_iteration(said)]
    assert converge.stalled(events_, None, 2)[0] == "ARCHITECTURE_DEFECT"


def test_an_event_whose_keys_do_not_pair_with_its_sentences_is_classified_from_the_sentences():
    data = {"blockers": ["REQ-001 not verified", "INV-001 violated"],
            "blocker_keys": [{"check": "x", "kind": "y", "subject": []}]}
    assert [b.key for b in from_event(data)] == [("requirements_verified", "not_verified", ("REQ-001",)),
                                                 ("invariants_hold", "violated", ("INV-001",))]


def test_gate_evaluated_stores_each_blockers_key_beside_its_text(h, repo, task):
    to_gating(h, verify=False)
    code, doc = gate_json(h)
    said = ["REQ-001 not verified", "1 requirement(s) cite no evidence: REQ-001 (uncovered_allowed 0)"]
    assert code == 1 and doc["blockers"] == said  # the report's sentences, as before
    recorded = [e for e in events(repo, task) if e["type"] == "gate.evaluated"][-1]["data"]
    assert recorded["blockers"] == said
    assert recorded["blocker_keys"] == [
        {"check": "requirements_verified", "kind": "not_verified", "subject": ["REQ-001"]},
        {"check": "requirements_verified", "kind": "uncovered", "subject": ["REQ-001"]}]


OLD_SENTENCES = ["REQ-001 not verified", "1 requirement(s) cite no evidence: REQ-001 (uncovered_allowed 0)"]


def test_an_old_ledgers_text_only_gate_events_replay_and_still_count_toward_a_stall(h, repo, task):
    # Two iterations recorded the way the harness wrote them before keys: sentences only.
    to_gating(h, verify=False)
    tree = gate_json(h)[1]["tree"]
    for _ in range(2):
        append_event(repo, task, "gate.evaluated", {"verdict": "BLOCKED", "tree": tree, "head": None,
                                                    "policy": "0" * 64, "blockers": OLD_SENTENCES})
        h.ok("replay", "--write")  # the files follow the hand-appended event
        assert "ledger OK" in h.ok("replay").out
        h.ok("transition", "BLOCKED")
        walk_to(h, "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    assert h("gate").code == 1  # a third iteration, recorded with keys
    h.ok("transition", "BLOCKED")
    walk_to(h, "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    r = h("converge", "--json")
    # REQ-001 blocked three iterations ago (an old, text-only event) and blocks now (a keyed one): one blocker.
    assert r.code == 3 and '"SPEC_AMBIGUITY"' in r.out and "REQ-001 not verified" in r.out, r.text


def test_a_failing_fail_to_pass_run_is_told_by_its_kind_not_its_words():
    failing = Blocker("requirements_verified", "fail_to_pass_failing", ("REQ-001",), "REQ-001: fail_to_pass is missing")
    missing = Blocker("requirements_verified", "fail_to_pass_unusable", ("REQ-001",),
                      "REQ-001 names test cases, but fail_to_pass evidence is failing: harness evidence fail_to_pass")
    assert clearing(failing) == []  # a failure needs a fix, however it is worded
    assert [s.command for s in clearing(missing)] == ["harness evidence fail_to_pass"]


def test_an_old_ledgers_evidence_failure_stalls_as_one_whatever_its_type_is_called():
    # Classified once, at read: the sentence's words ("finding") do not make it a finding's stall.
    stall = converge.stalled(old_ledger(*["custom.finding evidence failed: exit 1"] * 3), None, 2)
    assert stall is not None and stall[0] == "ARCHITECTURE_DEFECT", stall


def test_a_finding_rejected_but_unrefuted_after_being_open_is_one_stalled_blocker():
    open_ = Blocker("major_findings", "finding_open", ("F-0001",), "open")
    unrefuted = Blocker("major_findings", "finding_unrefuted", ("F-0001",), "rejected, not refuted")
    events_ = [e for b in (open_, open_, unrefuted) for e in keyed_iteration(b)]
    assert converge.stalled(events_, None, 2)[0] == "REVIEW_DISAGREEMENT"
    other = Blocker("major_findings", "finding_unrefuted", ("F-0002",), "rejected, not refuted")
    assert converge.stalled([*events_, *keyed_iteration(other)], None, 1) is None  # another finding: cleared


@pytest.mark.parametrize("text,check", [
    ("REQ-001 names test cases, but cites no run that lists them", "requirements_verified"),
    ("INV-002 could not be checked: tree abc", "invariants_hold"),
    ("Critical finding F-0003 is disputed", "critical_findings"),
    ("Finding F-0004 regression run vanished", "regression_verified"),
    ("REQUIREMENTS-1 are odd", "unknown"),
])
def test_a_sentence_no_rule_knows_still_belongs_to_the_check_its_subject_names(text, check):
    assert (classify(text).check, classify(text).kind) == (check, "unknown")


def old_ledger(*sentences: str) -> list[dict]:
    """Text-only gate judgements, as a harness before blocker keys wrote them, each ending an iteration."""
    return [e for text in sentences for e in ({"type": "gate.evaluated", "data": {"blockers": [text]}},
                                              {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}})]


def test_a_failing_fail_to_pass_keyed_before_its_kind_existed_is_the_blocker_the_gate_gives_now():
    said = "REQ-001 names test cases, but fail_to_pass evidence is failing: harness evidence fail_to_pass"
    recorded = {"blockers": [said], "blocker_keys": [
        {"check": "requirements_verified", "kind": "fail_to_pass_unusable", "subject": ["REQ-001"]}]}
    assert [b.kind for b in from_event(recorded)] == ["fail_to_pass_failing"]
    live = [Blocker("requirements_verified", "fail_to_pass_failing", ("REQ-001",), said)]
    iterations = [e for _ in range(2) for e in ({"type": "gate.evaluated", "data": recorded},
                                                {"type": "task.transitioned", "data": {"from": "GATING", "to": "BLOCKED"}})]
    assert converge.stalled(iterations, live, 2) is not None  # one blocker across the upgrade: a stall
    missing = {"blockers": [said.replace("failing", "missing")], "blocker_keys": recorded["blocker_keys"]}
    assert [b.kind for b in from_event(missing)] == ["fail_to_pass_unusable"]  # a run still to make stays one
