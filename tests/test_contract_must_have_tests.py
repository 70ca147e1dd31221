"""Under gate.yaml's `requirements.must_have_tests`, a must requirement whose plan names no test case can
never pass the gate, and a requirement cannot be withdrawn once recorded: `contract check` names it and
`contract apply` refuses it, with the way out (name the failing test; or, for "existing behaviour holds",
an invariant verified by pass_to_pass). Without the switch nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from support.records import tdir


def _contract(tmp_path: Path, must_plan: list[str]) -> Path:
    doc = {"contract": {
        "acceptance_criteria": ["`tool --version` prints the version"],
        "requirements": [
            {"statement": "`tool --version` prints the version", "priority": "must", "verified_by": must_plan},
            {"statement": "the help text mentions it", "priority": "should"},
        ],
        "invariants": [{"statement": "existing behaviour is unchanged", "category": "compatibility",
                        "severity": "major", "verified_by": ["pass_to_pass"]}],
    }}
    path = tmp_path / "in" / "contract.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def _must_have_tests(repo: Path, on: bool) -> None:
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["requirements"]["must_have_tests"] = on
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))


def test_check_names_a_must_requirement_without_a_test_case_and_the_way_out(h, repo, tmp_path):
    _must_have_tests(repo, True)
    h.ok("task", "new", "version flag")
    r = h("contract", "check", "--file", str(_contract(tmp_path, ["unit_test"])))
    assert r.code == 1, r.text
    assert "requirements[0]" in r.out and "must_have_tests" in r.out and "pass_to_pass" in r.out, r.out
    assert "complete" not in r.out


def test_apply_refuses_it_and_records_nothing(h, repo, tmp_path):
    _must_have_tests(repo, True)
    tid = h.ok("task", "new", "version flag").out.strip()
    before = (tdir(repo, tid) / "events.jsonl").read_bytes()
    r = h("contract", "apply", "--file", str(_contract(tmp_path, ["unit_test"])))
    assert r.code != 0, r.text
    assert "names no test case" in r.text, r.text
    assert (tdir(repo, tid) / "events.jsonl").read_bytes() == before


@pytest.mark.parametrize("on", [True, False])
def test_a_plan_naming_its_test_case_is_complete_with_or_without_the_switch(h, repo, tmp_path, on):
    _must_have_tests(repo, on)
    h.ok("task", "new", "version flag")
    path = _contract(tmp_path, ["unit_test", "tests/test_cli.py::test_version"])
    assert h("contract", "check", "--file", str(path)).code == 0
    assert h("contract", "apply", "--file", str(path)).code == 0


def test_without_the_switch_a_plan_of_evidence_types_only_is_still_complete(h, repo, tmp_path):
    _must_have_tests(repo, False)
    h.ok("task", "new", "version flag")
    path = _contract(tmp_path, ["unit_test"])
    r = h("contract", "check", "--file", str(path))
    assert r.code == 0 and "complete" in r.out, r.text
    assert h("contract", "apply", "--file", str(path)).code == 0
