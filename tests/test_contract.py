"""The task contract (issue 5, seed §18): `harness contract apply` and `harness contract check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from support.cli import walk_to
from support.paths import ROOT
from support.records import tdir

EXAMPLE = ROOT / "templates" / "contract.example.yaml"

SMALL = {"contract": {
    "acceptance_criteria": ["answer() returns 41"],
    "requirements": [
        {"statement": "answer() returns 41", "priority": "must", "source": "user", "verified_by": ["unit_test"]},
        {"statement": "answer() stays cheap", "priority": "should"},
    ],
    "invariants": [
        {"statement": "answer() is an int", "category": "types", "severity": "major", "verified_by": ["unit_test"]},
    ],
    "risks": ["callers compare with 42"],
}}


def write(tmp_path: Path, doc, name: str = "contract.yaml") -> Path:
    path = tmp_path / "in" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def load(repo: Path, tid: str, name: str) -> dict:
    return yaml.safe_load((tdir(repo, tid) / name).read_text("utf-8"))


def ledger(repo: Path, tid: str) -> bytes:
    return (tdir(repo, tid) / "events.jsonl").read_bytes()


def state(h) -> str:
    return json.loads(h.ok("status", "--json").out)["state"]


# =======================================================================================
# apply
# =======================================================================================

def test_apply_records_requirements_invariants_and_moves_created_to_planned(h, task, repo, tmp_path):
    r = h("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    assert r.code == 0, r.text
    assert "CREATED → SPECIFYING → PLANNED" in r.out
    assert state(h) == "PLANNED"
    reqs = load(repo, task, "requirements.yaml")["requirements"]
    assert [(q["id"], q["statement"], q["priority"], q["source"], q["status"]) for q in reqs] == [
        ("REQ-001", "answer() returns 41", "must", "user", "pending"),
        ("REQ-002", "answer() stays cheap", "should", "spec", "pending"),
    ]
    invs = load(repo, task, "invariants.yaml")["invariants"]
    assert [(i["id"], i["statement"], i["category"], i["severity"], i["status"]) for i in invs] == [
        ("INV-001", "answer() is an int", "types", "major", "pending")]
    events = [json.loads(line) for line in ledger(repo, task).decode().splitlines()]
    moves = [(e["data"]["from"], e["data"]["to"]) for e in events if e["type"] == "task.transitioned"]
    assert moves == [("CREATED", "SPECIFYING"), ("SPECIFYING", "PLANNED")]
    assert [e["type"] for e in events].count("contract.applied") == 1


def test_after_apply_contract_yaml_exists_and_replay_agrees(h, task, repo, tmp_path):
    h.ok("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    doc = load(repo, task, "contract.yaml")["contract"]
    assert doc["acceptance_criteria"] == ["answer() returns 41"]
    assert [q["id"] for q in doc["requirements"]] == ["REQ-001", "REQ-002"]
    assert doc["requirements"][0]["verified_by"] == ["unit_test"]
    assert doc["invariants"][0]["verified_by"] == ["unit_test"]
    assert doc["risks"] == ["callers compare with 42"]
    r = h("replay")
    assert r.code == 0, r.text
    r = h("contract", "check")
    assert r.code == 0, r.text
    assert "complete" in r.out


def test_hand_edited_contract_yaml_is_caught_by_replay(h, task, repo, tmp_path):
    h.ok("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    path = tdir(repo, task) / "contract.yaml"
    path.write_text(path.read_text().replace("answer() returns 41", "answer() returns anything"))
    r = h("replay")
    assert r.code == 2, r.text
    assert "contract.yaml" in r.err


def test_apply_the_shipped_example(h, task, repo):
    r = h("contract", "apply", "--file", str(EXAMPLE))
    assert r.code == 0, r.text
    assert state(h) == "PLANNED"
    assert len(load(repo, task, "requirements.yaml")["requirements"]) == 7
    assert len(load(repo, task, "invariants.yaml")["invariants"]) == 3
    assert h("replay").code == 0


@pytest.mark.parametrize("path", [("SPECIFYING",), ("SPECIFYING", "PLANNED"), ("SPECIFYING", "PLANNED", "IMPLEMENTING")])
def test_apply_to_a_task_not_in_created_is_refused(h, task, repo, tmp_path, path):
    walk_to(h, *path)
    before = ledger(repo, task)
    r = h("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    # A rule refusing a well-formed request is exit 1 (errors.Refused), like every other state refusal.
    assert r.code == 1, r.text
    assert "CREATED" in r.err and path[-1] in r.err
    assert ledger(repo, task) == before
    assert not (tdir(repo, task) / "contract.yaml").exists()


def test_apply_twice_is_refused(h, task, repo, tmp_path):
    h.ok("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    before = ledger(repo, task)
    r = h("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    assert r.code == 1, r.text
    assert ledger(repo, task) == before


@pytest.mark.parametrize("kind, args", [
    ("requirement", ("Interrupted runs resume", "--priority", "must")),
    ("invariant", ("One effect per action id", "--category", "idempotency", "--severity", "critical")),
])
def test_apply_to_a_task_with_existing_items_is_refused(h, task, repo, tmp_path, kind, args):
    h.ok(kind, "add", *args)
    assert state(h) == "CREATED"
    before = ledger(repo, task)
    r = h("contract", "apply", "--file", str(write(tmp_path, SMALL)))
    assert r.code == 1, r.text
    assert "already has requirements or invariants" in r.err
    assert ledger(repo, task) == before and state(h) == "CREATED"


def test_apply_an_incomplete_contract_is_refused_naming_each_gap(h, task, repo, tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(SMALL))
    del doc["contract"]["requirements"][0]["verified_by"]
    doc["contract"]["invariants"][0].pop("severity")
    before = ledger(repo, task)
    r = h("contract", "apply", "--file", str(write(tmp_path, doc)))
    assert r.code == 1, r.text
    assert "answer() returns 41" in r.err and "verified_by" in r.err
    assert "answer() is an int" in r.err and "severity" in r.err
    assert ledger(repo, task) == before
    assert state(h) == "CREATED"
    assert not (tdir(repo, task) / "contract.yaml").exists()


@pytest.mark.parametrize("mutate, field", [
    (lambda c: c.pop("acceptance_criteria"), "acceptance_criteria"),
    (lambda c: c.update(acceptance_criteria=[]), "acceptance_criteria"),
    (lambda c: c.pop("requirements"), "requirements"),
    (lambda c: c["requirements"][0].pop("priority"), "priority"),
    (lambda c: c["requirements"][0].update(verified_by=["vibes"]), "verified_by"),
    (lambda c: c["invariants"][0].update(severity="huge"), "severity"),
    (lambda c: c.update(surprise=1), "surprise"),
])
def test_apply_a_malformed_contract_exits_2_naming_the_field(h, task, repo, tmp_path, mutate, field):
    doc = yaml.safe_load(yaml.safe_dump(SMALL))
    mutate(doc["contract"])
    before = ledger(repo, task)
    r = h("contract", "apply", "--file", str(write(tmp_path, doc)))
    assert r.code == 2, r.text
    assert field in r.err
    assert ledger(repo, task) == before


# =======================================================================================
# check
# =======================================================================================

def test_check_names_every_gap_and_exits_1(h, tmp_path):
    doc = {"contract": {
        "acceptance_criteria": ["x"],
        "requirements": [
            {"statement": "Alpha must be planned", "priority": "must"},
            {"statement": "Beta must be planned too", "priority": "must", "verified_by": []},
            {"statement": "Gamma is planned", "priority": "must", "verified_by": ["integration_test"]},
            {"statement": "Delta is only a should", "priority": "should"},
            {"statement": "Epsilon is only a could", "priority": "could"},
        ],
        "invariants": [
            {"statement": "Inv without category", "severity": "major", "verified_by": ["unit_test"]},
            {"statement": "Inv without severity", "category": "recovery", "verified_by": ["unit_test"]},
            {"statement": "Inv without verification", "category": "recovery", "severity": "minor"},
            {"statement": "Inv with nothing"},
            {"statement": "Inv complete", "category": "recovery", "severity": "minor", "verified_by": ["unit_test"]},
        ],
    }}
    r = h("contract", "check", "--file", str(write(tmp_path, doc)))
    assert r.code == 1, r.text
    lines = r.out.splitlines()

    def line_of(text: str) -> str:
        found = [line for line in lines if text in line]
        assert len(found) == 1, (text, r.out)
        return found[0]

    assert "verified_by" in line_of("Alpha must be planned")
    assert "verified_by" in line_of("Beta must be planned too")
    assert "category" in line_of("Inv without category")
    assert "severity" in line_of("Inv without severity")
    assert "verification" in line_of("Inv without verification")
    nothing = line_of("Inv with nothing")
    assert "category" in nothing and "severity" in nothing and "verification" in nothing
    for fine in ("Gamma", "Delta", "Epsilon", "Inv complete"):
        assert fine not in r.out
    assert len(lines) == 6


def test_check_the_shipped_example_exits_0(h):
    r = h("contract", "check", "--file", str(EXAMPLE))
    assert r.code == 0, r.text
    assert "complete" in r.out


def test_check_without_a_file_and_without_an_applied_contract_is_refused(h, task):
    r = h("contract", "check")
    assert r.code == 1
    assert "no applied contract" in r.err


def test_check_works_outside_a_task_with_a_file(h):
    r = h("contract", "check", "--file", str(EXAMPLE))
    assert r.code == 0, r.text


# =======================================================================================
# The shipped example: the seed's resumable-execution feature
# =======================================================================================

@pytest.mark.parametrize("scenario", ["happy path", "duplicate request", "timeout", "retry", "process restart",
                                      "duplicate recovery", "invalid state transition"])
def test_example_contract_covers_the_seed_scenarios(scenario):
    doc = yaml.safe_load(EXAMPLE.read_text("utf-8"))["contract"]
    statements = [r["statement"].lower() for r in doc["requirements"]]
    hits = [s for s in statements if scenario in s]
    assert hits, f"no requirement covers {scenario!r}"
    for req in doc["requirements"]:
        if scenario in req["statement"].lower():
            assert req["priority"] == "must" and req["verified_by"]


def test_example_contract_is_about_resumable_idempotent_execution():
    text = EXAMPLE.read_text("utf-8").lower()
    assert "resum" in text and "idempoten" in text
    doc = yaml.safe_load(text)["contract"]
    assert doc["acceptance_criteria"] and doc["invariants"] and doc["risks"]
    for inv in doc["invariants"]:
        assert inv["category"] and inv["severity"] and inv["verified_by"]
