"""`harness init` writes a gate that requires the evidence types config.yaml configures, and with none configured keeps the shipped defaults and says to set the commands first."""

from __future__ import annotations

import pytest

from harness import resources
from harness.core.policy import default_gate_text
from harness.store.settings import parse_gate

from support.cli import TO_VERIFYING, walk_to
from support.gitrepo import commit_all_ok

CONFIG = """version: 1
evidence:
  unit_test:
    command: ["python3", "-c", "pass"]
  lint:
    command: ["python3", "-c", "pass"]
"""


def test_default_gate_requires_what_config_configures():
    text = default_gate_text(resources.template("gate.yaml").decode(), ["unit_test", "lint"])
    verification = parse_gate(text.encode()).doc["verification"]
    assert verification == {"build": "optional", "unit_test": "required", "integration_test": "optional",
                            "lint": "required"}
    assert text.replace("optional", "").count("required") >= 2


def test_with_nothing_configured_the_shipped_defaults_stand():
    template = resources.template("gate.yaml").decode()
    assert default_gate_text(template, []) == template


@pytest.mark.e2e  # commits through the installed native git hooks
def test_init_after_config_writes_a_gate_for_those_types_and_it_commits_without_approval(repo, capfd):
    from support.cli import Harness

    h = Harness(repo, capfd)
    (repo / ".harness").mkdir()
    (repo / ".harness/config.yaml").write_text(CONFIG)
    r = h.ok("init")
    assert "unit_test, lint" in r.out
    assert parse_gate((repo / ".harness/gate.yaml").read_bytes()).doc["verification"]["build"] == "optional"
    h.ok("install")
    commit_all_ok(repo, "harness with a python-only policy")
    h.ok("task", "new", "Pure Python")
    h.ok("requirement", "add", "x", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "unit_test")
    h.ok("evidence", "lint")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    assert h("gate").code == 0  # no build evidence needed, and the policy is not a "loosening"


def test_a_first_gate_looser_than_the_configured_types_is_still_refused(repo, capfd):
    from support.cli import Harness

    h = Harness(repo, capfd)
    (repo / ".harness").mkdir()
    (repo / ".harness/config.yaml").write_text(CONFIG)
    h.ok("init")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("    lint: required", "    lint: optional"))
    h.ok("task", "new", "Looser")
    r = h("gate")
    assert r.code == 2 and "verification.lint required → optional" in r.out


def test_init_with_nothing_configured_says_to_set_the_commands_before_the_first_commit(repo, capfd):
    from support.cli import Harness

    r = Harness(repo, capfd).ok("init")
    assert "before the first commit" in r.out and "harness approve config-change" in r.out
