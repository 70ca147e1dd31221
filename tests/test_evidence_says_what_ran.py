"""Evidence says which program ran and under which environment, and "ran the configured
command" means the same argv after the same redaction — a marker is never a wildcard."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from support.answer_project import to_gating
from support.cli import TO_VERIFYING, walk_to

PY = sys.executable


def _configure(repo: Path, argv: list[str]) -> None:
    (repo / ".harness/config.yaml").write_text(f"version: 1\nevidence:\n  unit_test:\n    command: {json.dumps(argv)}\n"
                                               f"  build:\n    command: {json.dumps([PY, '-c', 'pass'])}\n")


def _record(repo: Path, tid: str, etype: str = "unit_test") -> dict:
    return json.loads((repo / ".harness/tasks" / tid / "evidence" / f"{etype}.json").read_text())


def _fake_python(folder: Path) -> Path:
    """A `python3` that passes whatever it is asked: `true` under a trusted name."""
    folder.mkdir()
    fake = folder / "python3"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    return fake


def test_a_secret_named_variable_holding_a_program_path_does_not_make_it_a_wildcard(h, repo, task, monkeypatch):
    _configure(repo, ["python3", "-c", "import app; assert app.answer() == 42"])
    to_gating(h)
    assert h("gate").code == 0
    # `true` recorded as [REDACTED:env:FAKE_TOKEN] used to match `python3`.
    monkeypatch.setenv("FAKE_TOKEN", "/usr/bin/true")
    h.ok("evidence", "unit_test", "--", "/usr/bin/true", "-c", "import app; assert app.answer() == 42")
    assert _record(repo, task)["argv"][0] == "[REDACTED:env:FAKE_TOKEN]"
    r = h("gate", "--json")
    doc = json.loads(r.out)
    assert r.code == 1
    assert any("unit_test evidence does not count" in b for b in doc["blockers"]), doc["blockers"]


def test_configured_command_with_a_secret_flag_still_counts_when_recorded_redacted(h, repo, task):
    argv = [PY, "-c", "import sys; sys.exit(0)", "--password", "hunter2hunter2"]
    _configure(repo, argv)
    to_gating(h)
    assert _record(repo, task)["argv"][-1] == "[REDACTED:secret_flag]"
    assert h("gate").code == 0


def test_evidence_records_the_resolved_program_and_the_environment_that_steers_it(h, repo, task, monkeypatch):
    monkeypatch.setenv("PYTEST_ADDOPTS", "-k nothing --token=ghp_" + "a" * 36)
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    h.ok("evidence", "unit_test", "--", "python3", "-c", "pass")
    rec = _record(repo, task)
    import shutil

    found = os.path.abspath(shutil.which("python3"))
    assert rec["program"] == found
    assert rec["program_real"] == (os.path.realpath(found) if os.path.realpath(found) != found else None)
    assert set(rec["env"]) == {"PATH", "PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "NODE_OPTIONS", "VIRTUAL_ENV",
                                "PYTHONPYCACHEPREFIX"}
    assert rec["env"]["PATH"] == os.environ["PATH"]
    assert rec["env"]["NODE_OPTIONS"] is None
    assert "ghp_" not in rec["env"]["PYTEST_ADDOPTS"] and "[REDACTED:" in rec["env"]["PYTEST_ADDOPTS"]


def test_recorded_env_list_is_configurable(h, repo, task, monkeypatch):
    (repo / ".harness/config.yaml").write_text("version: 1\nrecorded_env: [MY_MODE, DB_PASSWORD]\n")
    monkeypatch.setenv("MY_MODE", "fast")
    monkeypatch.setenv("DB_PASSWORD", "s3cr3t-value-long")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    env = _record(repo, task)["env"]
    assert env == {"MY_MODE": "fast", "DB_PASSWORD": "[REDACTED:env:DB_PASSWORD]"}


def test_a_python3_earlier_on_path_is_named_in_the_record_the_gate_and_status(h, repo, task, tmp_path, monkeypatch):
    _configure(repo, ["python3", "-c", "import app; assert app.answer() == 41"])  # fails with the real python3
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    fake = _fake_python(tmp_path / "decoy")
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    assert _record(repo, task)["program"] == str(fake)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    gate = h("gate")
    assert f"unit_test: {fake}" in gate.out, gate.out
    assert json.loads(h("gate", "--json").out)["programs"]["unit_test"] == str(fake)
    status = h("status")
    assert f"ran {fake}" in status.out, status.out
    assert json.loads(h("status", "--json").out)["evidence"]["unit_test"]["program"] == str(fake)


def test_a_relative_program_is_resolved_against_the_repository(h, repo, task):
    script = repo / "run.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    h.ok("evidence", "unit_test", "--", "./run.sh")
    assert _record(repo, task)["program"] == str(repo / "run.sh")


def test_a_program_that_does_not_exist_is_recorded_as_none(h, repo, task):
    h("evidence", "unit_test", "--", "no-such-program-xyz")
    rec = _record(repo, task)
    assert rec["outcome"] == "not_found" and rec["program"] is None


def test_a_reproduction_attempt_names_the_program_that_ran(h, repo, task, tmp_path, monkeypatch):
    import yaml

    (repo / "f.yaml").write_text(json.dumps({
        "severity": "major", "category": "logic", "title": "t", "claim": "c", "location": {"file": "app.py"},
        "failure_scenario": ["x"], "expected_behavior": "y",
        "recommended_reproducer": {"type": "unit_test", "description": "d",
                                   "command": ["python3", "-c", "import app; assert app.answer() == 41"]}}))
    h.ok("finding", "propose", "--file", "f.yaml")
    fake = _fake_python(tmp_path / "decoy")
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    h.ok("finding", "reproduce", "F-0001")  # the decoy passes: an attempt, not a refutation in disguise
    doc = yaml.safe_load((repo / ".harness/tasks" / task / "findings/F-0001.yaml").read_text())
    assert doc["attempts"][-1]["program"] == str(fake)


def test_a_short_secret_named_variable_in_recorded_env_is_recorded_as_a_marker(h, repo, task, monkeypatch):
    # Too short to be redacted wherever it appears (it would hit ordinary words), but listed
    # by name: config.yaml must not be a way to copy a password into the evidence.
    (repo / ".harness/config.yaml").write_text("version: 1\nrecorded_env: [DB_PASSWORD, API_KEY]\n")
    monkeypatch.setenv("DB_PASSWORD", "hunter2")
    monkeypatch.setenv("API_KEY", "k3y")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    env = _record(repo, task)["env"]
    assert env == {"DB_PASSWORD": "[REDACTED:env:DB_PASSWORD]", "API_KEY": "[REDACTED:env:API_KEY]"}
    assert b"hunter2" not in b"".join(p.read_bytes() for p in (repo / ".harness").rglob("*") if p.is_file())
