"""`requirement set` (and `invariant set`) given a citation that leaves out a type the contract plans
for the item: the status is recorded (the rest of the evidence may still be coming), with a warning
that names what the gate will want and the command that gives it."""

from __future__ import annotations

import shlex
import sys

from support.cli import gate_json, walk_to

PY = sys.executable
CONTRACT = """contract:
  acceptance_criteria: ["the answer is right"]
  requirements:
    - statement: The answer is 42
      priority: must
      verified_by: [unit_test, build]
  invariants:
    - statement: answer() is pure
      category: correctness
      severity: major
      verified_by: [unit_test]
"""


def contracted(h, tmp_path) -> None:
    path = tmp_path / "contract.yaml"
    path.write_text(CONTRACT)
    h.ok("contract", "apply", "--file", str(path))
    walk_to(h, "IMPLEMENTING", "VERIFYING")
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")


def test_a_citation_short_of_the_plan_is_recorded_with_a_warning_naming_the_full_command(h, repo, task, tmp_path):
    contracted(h, tmp_path)
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 0 and r.out.startswith("REQ-001: verified")  # a warning, not a refusal
    assert "warning: REQ-001: the contract plans verification by unit_test, build" in r.err
    fix = r.err.split("`")[1]
    assert fix == "harness requirement set REQ-001 --status verified --evidence unit_test --evidence build"
    walk_to(h, "REVIEWING", "GATING")
    assert any(b.startswith("REQ-001: the contract plans") for b in gate_json(h)[1]["blockers"])  # as warned
    followed = h(*shlex.split(fix)[1:])
    assert followed.code == 0 and "warning" not in followed.err
    assert not any(b.startswith("REQ-001") for b in gate_json(h)[1]["blockers"])


def test_a_citation_covering_the_plan_says_nothing(h, repo, task, tmp_path):
    contracted(h, tmp_path)
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build", "--evidence", "unit_test")
    assert r.code == 0 and "warning" not in r.err
    r = h("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 0 and "warning" not in r.err


def test_an_invariant_short_of_its_plan_is_warned_about_too(h, repo, task, tmp_path):
    contracted(h, tmp_path)
    r = h("invariant", "set", "INV-001", "--status", "verified", "--evidence", "build")
    assert r.code == 0 and "warning: INV-001: the contract plans verification by unit_test" in r.err
    assert "`harness invariant set INV-001 --status verified --evidence build --evidence unit_test`" in r.err


def test_without_a_contract_or_a_verified_status_there_is_nothing_to_warn_about(h, repo, task, tmp_path):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 0 and "warning" not in r.err
    contracted_task = h.ok("task", "new", "with a contract").out.strip()
    contracted(h, tmp_path)
    r = h("requirement", "set", "REQ-001", "--status", "pending", "--task", contracted_task)
    assert r.code == 0 and "warning" not in r.err
