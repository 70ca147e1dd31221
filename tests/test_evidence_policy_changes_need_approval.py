"""Committing a swapped or removed evidence command, or a first gate.yaml looser than the default, needs approval; a command for a new type does not."""

from __future__ import annotations

from support.answer_project import PY, configure
from support.cli import validate_staged
from support.gitrepo import git


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


def test_deleting_config_yaml_removes_every_command_and_needs_approval(h, repo):
    configure(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with configured commands")
    (repo / ".harness/config.yaml").unlink()
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence.unit_test.command" in r.stderr and "removed" in r.stderr
