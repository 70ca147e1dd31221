"""Named custom evidence types (`custom.NAME`): several extra checks, each its own configured command,
record, gate line and citation — so one failing check cannot hide behind, or sink, another."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import TO_VERIFYING, gate_json, walk_to
from support.gitrepo import commit_all_ok
from support.records import append_event, ledger_bytes

PY = sys.executable


def _configure(repo: Path, slow_exit: int = 1, required: tuple[str, ...] = ("custom.fast",)) -> None:
    config = yaml.safe_load((repo / ".harness/config.yaml").read_text())
    config["evidence"] = {
        "build": {"command": [PY, "-c", "pass"]},
        "unit_test": {"command": [PY, "-c", "pass"]},
        "custom.fast": {"command": [PY, "-c", "print('fast ok')"]},
        "custom.slow": {"command": [PY, "-c", f"raise SystemExit({slow_exit})"]},
    }
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    gate = yaml.safe_load((repo / ".harness/gate.yaml").read_text())
    gate["gate"]["verification"].update({t: "required" for t in required})
    (repo / ".harness/gate.yaml").write_text(yaml.safe_dump(gate, sort_keys=False))


def _verifying(h) -> None:
    h.ok("requirement", "add", "Fast path under budget", "--priority", "must")
    h.ok("requirement", "add", "Slow path under budget", "--priority", "should")
    walk_to(h, *TO_VERIFYING)
    for etype in ("build", "unit_test", "custom.fast"):
        h.ok("evidence", etype)


def test_each_named_type_runs_its_own_command_into_its_own_record(h, repo, task):
    _configure(repo)
    _verifying(h)
    assert h("evidence", "custom.slow").code == 1
    folder = repo / ".harness/tasks" / task / "evidence"
    fast, slow = (json.loads((folder / f"custom.{n}.json").read_text()) for n in ("fast", "slow"))
    assert (fast["type"], fast["outcome"], slow["type"], slow["outcome"]) == ("custom.fast", "passed", "custom.slow", "failed")
    assert "fast ok" in (folder / "custom.fast.log").read_text()
    assert h("replay").code == 0


def test_a_requirement_is_verified_by_the_named_check_that_passed_and_refused_for_the_one_that_failed(h, repo, task):
    _configure(repo)
    _verifying(h)
    h("evidence", "custom.slow")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.fast")
    r = h("requirement", "set", "REQ-002", "--status", "verified", "--evidence", "custom.slow")
    assert r.code == 1 and "custom.slow" in r.err


def test_the_gate_judges_each_named_type_on_its_own_line(h, repo, task):
    _configure(repo, required=("custom.fast", "custom.slow"))
    _verifying(h)
    h("evidence", "custom.slow")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.fast")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1
    assert doc["blockers"] == ["1 requirement(s) cite no evidence: REQ-002 (uncovered_allowed 0)",
                               "custom.slow evidence failed: failed (exit 1)"], doc["blockers"]
    text = h("gate").out
    assert "Custom: fast" in text and "Custom: slow" in text


def test_a_named_type_passes_the_gate_commits_and_reruns_in_ci(h, repo, task):
    _configure(repo, slow_exit=0, required=("custom.fast", "custom.slow"))
    base = commit_all_ok(repo, "config")
    _verifying(h)
    h.ok("evidence", "custom.slow")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.fast")
    h.ok("requirement", "set", "REQ-002", "--status", "verified", "--evidence", "custom.slow")
    walk_to(h, "REVIEWING", "GATING")
    h.ok("gate", "--advance")
    h.ok("transition", "DONE")
    commit_all_ok(repo, "done")
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 0, r.err
    reruns = {(x["what"], x["result"]) for row in json.loads(r.out)["results"] for x in row.get("reruns", [])}
    assert {("custom.fast", "reproduces"), ("custom.slow", "reproduces")} <= reruns


@pytest.mark.parametrize("name", ["custom.", "custom.Perf", "custom.a.b", "custom.../x", "custom.x/y", "build.x",
                                  "customs", "custom." + "x" * 41])
def test_a_name_that_is_no_lower_case_word_is_refused_before_anything_runs(h, task, repo, name):
    before = ledger_bytes(repo, task)
    r = h("evidence", name, "--", PY, "-c", "pass")
    assert r.code == 2 and "is not an evidence type" in r.err, r.text
    assert ledger_bytes(repo, task) == before
    assert not list((repo / ".harness/tasks" / task / "evidence").iterdir())


def test_replay_refuses_a_forged_run_of_a_type_no_name_rule_allows(h, task, repo):
    append_event(repo, task, "evidence.prepared", {"run_id": "0123456789abcdef", "type": "custom.../../x",
                                                    "command": "true", "tree": "0" * 40, "head": None,
                                                    "started_at": "2026-01-01T00:00:00Z"})
    r = h("replay")
    assert r.code == 2 and "is not an evidence type" in r.err, r.text


def test_config_yaml_naming_a_type_no_name_rule_allows_is_refused(h, task, repo):
    config = yaml.safe_load((repo / ".harness/config.yaml").read_text())
    config["evidence"] = {"custom.Bad": {"command": ["true"]}}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump(config))
    r = h("evidence", "build", "--", "true")
    assert r.code == 2 and "config.yaml" in r.err, r.text
