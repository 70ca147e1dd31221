"""Shortcuts an adversarial review found, each now refused: evidence that ran some other
command, evidence during which the code changed, a contract's plan ignored, a swapped
evidence command in config.yaml, a race with the gate, files hidden from git."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import harness.gitio.git

from support.cli import TO_VERIFYING, Harness, gate_json, validate_staged, walk_to
from support.gitrepo import git
from support.templates import Template, template

PY = sys.executable
CONFIG = """version: 1
evidence:
  build:
    command: ["{py}", "-c", "pass"]
  unit_test:
    command: ["{py}", "-c", "import app; assert app.answer() == 42"]
"""


def configure(repo) -> None:
    (repo / ".harness/config.yaml").write_text(CONFIG.format(py=PY))


def to_gating(h) -> None:
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


@pytest.fixture(scope="session")
def configured_gating_template(tmp_path_factory, task_template) -> Template:
    """What ``configured_gating`` copies: the task's evidence commands configured, then ``to_gating``."""

    def build(repo: Path, h: Harness) -> dict:
        configure(repo)
        to_gating(h)
        return {}

    return template(tmp_path_factory, "gate-hardening-configured-gating", build, on=task_template)


@pytest.fixture
def task(task_template, h) -> str:
    """conftest's ``task`` (a fresh current task), copied from this module's template."""
    return task_template.data["task"]


@pytest.fixture
def configured_gating(configured_gating_template, task) -> None:
    """``configure(repo)`` then ``to_gating(h)`` done on ``task`` (copied from its template)."""


def test_configured_commands_make_a_legitimate_pass(h, repo, task, configured_gating):
    assert gate_json(h)[0] == 0


def test_evidence_from_another_command_than_the_configured_one_does_not_count(h, repo, task, configured_gating):
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")  # `true` in disguise
    code, doc = gate_json(h)
    assert code == 1
    assert any("unit_test evidence does not count" in b and "not the configured" in b for b in doc["blockers"])


def test_evidence_during_which_the_source_changed_does_not_count(h, repo, task):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    # The run edits the code and puts it back: the tree after differs from the tree before.
    h.ok("evidence", "unit_test", "--", PY, "-c", "open('app.py', 'a').write('# touched\\n')")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1 and any("unit_test evidence is unstable" in b for b in doc["blockers"])


CONTRACT = """contract:
  acceptance_criteria: ["the answer is right"]
  requirements:
    - statement: The answer is 42
      priority: must
      verified_by: [integration_test]
  invariants:
    - statement: answer() is pure
      category: correctness
      severity: major
      verified_by: [unit_test]
"""


def test_a_contracts_verification_plan_is_enforced_by_the_gate(h, repo, task, tmp_path):
    path = tmp_path / "contract.yaml"
    path.write_text(CONTRACT)
    h.ok("contract", "apply", "--file", str(path))
    walk_to(h, "IMPLEMENTING", "VERIFYING")
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build")
    h.ok("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1
    assert any(b.startswith("REQ-001: the contract plans verification by integration_test") for b in doc["blockers"])
    assert not any(b.startswith("INV-001") for b in doc["blockers"])


def test_swapping_a_configured_evidence_command_needs_approval_at_commit(h, repo):
    configure(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with configured commands")
    conf = repo / ".harness/config.yaml"
    conf.write_text(conf.read_text().replace("import app; assert app.answer() == 42", "pass"))
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr and "approve config-change" in r.stderr


def test_adding_a_command_for_a_new_type_needs_no_approval(h, repo):
    configure(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with configured commands")
    conf = repo / ".harness/config.yaml"
    conf.write_text(conf.read_text() + f'  lint:\n    command: ["{PY}", "-c", "pass"]\n')
    assert validate_staged(repo).returncode == 0


def test_a_first_commit_of_a_loosened_gate_yaml_is_refused(h, repo):
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("unit_test: required", "unit_test: optional"))
    r = validate_staged(repo)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr


def test_a_requirement_added_while_the_gate_computes_is_judged(h, repo, task, configured_gating, monkeypatch):
    original = harness.gitio.git.Git.worktree_source_tree
    raced = []

    def slow_tree(self):
        tree = original(self)
        if not raced:  # another harness process acts while the gate is computing the tree
            raced.append(h("requirement", "add", "Also handle 43", "--priority", "must"))
        return tree

    monkeypatch.setattr(harness.gitio.git.Git, "worktree_source_tree", slow_tree)
    code, doc = gate_json(h)
    assert raced and raced[0].code == 0
    assert code == 1 and "REQ-002 not verified" in doc["blockers"]
    monkeypatch.setattr(harness.gitio.git.Git, "worktree_source_tree", original)
    assert h("transition", "CONVERGED").code == 1


def test_an_assume_unchanged_edit_still_stales_the_evidence(h, repo, task, configured_gating):
    assert gate_json(h)[0] == 0
    git(repo, "update-index", "--assume-unchanged", "app.py")
    (repo / "app.py").write_text("def answer():\n    return 41  # hidden from git status\n")
    code, doc = gate_json(h)
    assert code == 1 and any("evidence is stale" in b for b in doc["blockers"])


def test_deleting_config_yaml_removes_every_command_and_needs_approval(h, repo):
    configure(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with configured commands")
    (repo / ".harness/config.yaml").unlink()
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence.unit_test.command" in r.stderr and "removed" in r.stderr


@pytest.mark.e2e  # real commits through the installed native hooks
def test_amending_untested_code_into_a_done_commit_warns_at_once(h, repo, task):
    configure(repo)
    h.ok("install")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    to_gating(h)
    h.ok("gate", "--advance")
    h.ok("transition", "DONE")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "gated done")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    git(repo, "add", "-A")
    p = git(repo, "commit", "-q", "--amend", "--no-edit")
    assert "WARNING: this commit will be refused at push" in p.stderr and "done-needs-gate-pass" in p.stderr
