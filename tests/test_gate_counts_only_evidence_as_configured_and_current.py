"""The gate counts evidence only from the configured command, on the tree it judges, by the contract's plan, and judges a requirement added while it computes."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness.gitio.git

from support.answer_project import PY, configure, to_gating
from support.cli import TO_VERIFYING, Harness, gate_json, walk_to
from support.gitrepo import git
from support.templates import Template, template


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
