"""A redaction pattern in config.yaml cannot make another command count as the configured one.

Redaction patterns need no approval; a pattern matching whole arguments (`.+`) turns every argv of
the same length into the same row of markers. The record keeps the digest of what ran when it was
config.yaml's own command, and the gate compares that, not the markers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from support.cli import TO_VERIFYING, gate_json, walk_to
from support.records import set_config

PY = sys.executable
CONFIG = f"""
evidence:
  build:
    command: {json.dumps([PY, "-c", "pass"])}
  unit_test:
    command: {json.dumps([PY, "-c", "import sys; sys.exit(0)"])}
redaction:
  patterns: [".+"]
"""


PASS_BUILD = f"command: {json.dumps([PY, '-c', 'pass'])}"


def _evidence(unit_test: str, build: str = PASS_BUILD) -> str:
    """config.yaml's evidence section: ``unit_test`` and ``build`` are their settings, one per line."""
    def indented(settings: str) -> str:
        return "".join(f"    {line}\n" for line in settings.splitlines())
    return f"\nevidence:\n  build:\n{indented(build)}  unit_test:\n{indented(unit_test)}"


def _digest_of(repo: Path, *plans) -> list[bool]:
    """Whether `harness evidence` would keep a digest for each plan under the repo's config.yaml."""
    from harness.evidence.record import configured_digest
    from harness.store.layout import open_layout
    from harness.store.settings import load_config

    config = load_config(open_layout(repo))
    return [configured_digest(config, plan) is not None for plan in plans]


def _gating(h, *unit_test: str, before_unit_test=lambda: None) -> None:
    """REQ-001 verified by unit_test evidence (`harness evidence unit_test UNIT_TEST...`), in GATING."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    before_unit_test()
    h.ok("evidence", "unit_test", *unit_test)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


def _record(repo: Path, tid: str) -> dict:
    return json.loads((repo / ".harness/tasks" / tid / "evidence/unit_test.json").read_text())


def test_another_command_of_the_same_length_does_not_pass_for_the_configured_one(h, repo, task):
    set_config(repo, CONFIG)
    _gating(h, "--", "sh", "-c", "exit 0")
    record = _record(repo, task)
    assert record["argv"] == ["[REDACTED:custom]"] * 3 and record["command_digest"] is None
    code, doc = gate_json(h)
    assert code == 1 and any("unit_test evidence does not count" in b and "as config.yaml names it" in b
                             for b in doc["blockers"]), doc


def test_the_configured_command_still_passes_under_a_pattern_that_hides_it(h, repo, task):
    set_config(repo, CONFIG)
    _gating(h)
    assert _record(repo, task)["command_digest"] is not None
    code, doc = gate_json(h)
    assert code == 0, doc


def test_the_configured_command_given_after_the_separator_counts_too(h, repo, task):
    set_config(repo, CONFIG)
    _gating(h, "--", PY, "-c", "import sys; sys.exit(0)")
    code, doc = gate_json(h)
    assert code == 0, doc


def test_a_command_swapped_in_config_yaml_for_the_run_and_swapped_back_does_not_count(h, repo, task):
    # The run matched the config of its moment; the gate judges the config it reads now.
    set_config(repo, CONFIG.replace("import sys; sys.exit(0)", "pass  "))
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    set_config(repo, CONFIG.replace("import sys; sys.exit(0)", "pass 2"))  # same length, other text
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1 and any("unit_test evidence does not count" in b for b in doc["blockers"]), doc


def test_a_record_from_before_the_digest_is_judged_by_its_argv_as_before(h, repo, task):
    set_config(repo, CONFIG.replace('redaction:\n  patterns: [".+"]\n', ""))
    _gating(h)
    record = _record(repo, task)
    del record["command_digest"]
    from harness.core.gate import evidence_status

    assert evidence_status(record, record["tree"], [], record["argv"], "0" * 64)[0] == "PASS"
    assert evidence_status({**record, "command_digest": None}, record["tree"], [], record["argv"], "0" * 64)[0] == "OTHER"


def test_the_configured_command_typed_after_the_separator_keeps_its_junit_report(h, repo, task):
    # Without the report, a run whose tests failed but exited 0 counted as passing.
    runner = repo / "runtests.py"
    runner.write_text("import pathlib\npathlib.Path('.harness/local/junit.xml').write_text(\n"
                      "    '<testsuite tests=\"2\" failures=\"1\"><testcase name=\"a\"/>'\n"
                      "    '<testcase name=\"b\"><failure message=\"no\"/></testcase></testsuite>')\n")
    set_config(repo, f"""
evidence:
  build:
    command: {json.dumps([PY, "-c", "pass"])}
  unit_test:
    command: {json.dumps([PY, "runtests.py"])}
    junit: .harness/local/junit.xml
""")
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    assert h("evidence", "unit_test", "--", PY, "runtests.py").code == 1
    assert _record(repo, task)["outcome"] == "failed"
    assert h("evidence", "unit_test", "--junit", ".harness/local/other.xml", "--", PY, "runtests.py").code == 1


def test_the_configured_command_run_without_its_report_does_not_count(h, repo, task):
    # `--junit` naming another report is another check: it may not stand in for the configured one.
    (repo / "ok.xml").write_text('<testsuite tests="1"><testcase name="a"/></testsuite>')
    set_config(repo, _evidence(f"{PASS_BUILD}\njunit: .harness/local/junit.xml"))
    from harness.evidence.record import Plan

    same = Plan("unit_test", [PY, "-c", "pass"], False, ".harness/local/junit.xml", None)
    other = Plan("unit_test", [PY, "-c", "pass"], False, "ok.xml", None)
    assert _digest_of(repo, same, other) == [True, False]


def test_a_secret_named_variable_holding_an_argument_does_not_refuse_the_configured_command(h, repo, task,
                                                                                           monkeypatch):
    hello = json.dumps([PY, "-c", "print('hello-world-123')"])
    set_config(repo, _evidence(f"command: {hello}"))
    monkeypatch.setenv("MY_API_TOKEN", "print('hello-world-123')")
    _gating(h)
    assert "[REDACTED:env:MY_API_TOKEN]" in _record(repo, task)["argv"]
    code, doc = gate_json(h)
    assert code == 0, doc


def test_a_shell_string_run_without_the_shell_is_another_program(h, repo, task):
    set_config(repo, _evidence('command: "exit 0"\nshell: true'))
    from harness.evidence.record import Plan

    shelled, bare = Plan("unit_test", "exit 0", True, None, None), Plan("unit_test", "exit 0", False, None, None)
    assert _digest_of(repo, shelled, bare) == [True, False]


JUNIT_CONFIG = _evidence(f"command: {json.dumps([PY, 'runtests.py'])}\njunit: .harness/local/junit.xml")
FAILING_REPORT = """import pathlib
pathlib.Path('.harness/local/junit.xml').write_text(
    '<testsuite tests="2" failures="1"><testcase name="a"/>'
    '<testcase name="b"><failure message="no"/></testcase></testsuite>')
"""
PASSING_REPORT = """import pathlib
pathlib.Path('.harness/local/junit.xml').write_text('<testsuite tests="1"><testcase name="a"/></testsuite>')
"""


def test_config_yaml_edited_for_one_run_and_restored_does_not_make_the_run_count(h, repo, task):
    # Without its report the failing suite exits 0; the record matched config.yaml of its moment,
    # the gate compares with config.yaml as it reads it.
    (repo / "runtests.py").write_text(FAILING_REPORT)
    set_config(repo, JUNIT_CONFIG)
    _gating(h, before_unit_test=lambda: set_config(repo, JUNIT_CONFIG.replace("    junit: .harness/local/junit.xml\n", "")))
    set_config(repo, JUNIT_CONFIG)
    code, doc = gate_json(h)
    assert code == 1 and any("unit_test evidence does not count" in b for b in doc["blockers"]), doc


def test_the_configured_report_spelled_another_way_still_counts(h, repo, task):
    (repo / "runtests.py").write_text(PASSING_REPORT)
    set_config(repo, JUNIT_CONFIG)
    _gating(h, "--junit", "./.harness/local/junit.xml")
    code, doc = gate_json(h)
    assert code == 0, doc


def test_a_shell_string_typed_as_one_argument_runs_as_the_configured_script(h, repo, task):
    set_config(repo, _evidence(PASS_BUILD, build=f'command: "{PY} -c pass && echo built-by-the-shell"\nshell: true'))
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    r = h.ok("evidence", "build", "--", f"{PY} -c pass && echo built-by-the-shell")
    assert "built-by-the-shell" in r.out + r.err
    record = json.loads((repo / ".harness/tasks" / task / "evidence/build.json").read_text())
    assert record["outcome"] == "passed" and record["shell"] is True and record["command_digest"]
