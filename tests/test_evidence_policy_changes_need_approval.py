"""Committing a swapped, removed or added evidence command, or a first gate.yaml looser than the default, needs approval;
the commit that adopts the harness configures its commands itself. (An added command needs it since read 54's F-0108:
committed before `harness task new`, it was "configured at the base" of the task, and verified with no human's word.)"""

from __future__ import annotations

from support.answer_project import configure
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


def test_adding_a_command_for_a_new_type_needs_approval_too(h, repo):
    configure(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with configured commands")
    conf = repo / ".harness/config.yaml"
    conf.write_text(conf.read_text() + '  custom.smoke:\n    command: ["true"]\n')
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr
    assert "evidence.custom.smoke.command added: 'true'" in r.stderr


def test_the_commit_that_adopts_the_harness_configures_its_commands_itself(h, repo):
    """No parent holds .harness/: every command of config.yaml is the adopter's, with no approval."""
    (repo / "app.py").write_text("x = 1\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "before the harness")
    configure(repo)
    git(repo, "add", "-A")
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


def test_re_adding_a_command_a_human_removed_needs_approval_again(h, repo):
    """Read 54's F-0107: the adopted command, removed since, re-added byte for byte, is an addition like any other."""
    configure(repo)
    conf = repo / ".harness/config.yaml"
    conf.write_text(conf.read_text() + '  custom.smoke:\n    command: ["true"]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt with a smoke command")
    adopted = conf.read_text()
    conf.write_text(adopted.replace('  custom.smoke:\n    command: ["true"]\n', ""))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "the smoke command removed (its approval is not what is tested)")
    conf.write_text(adopted)
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence.custom.smoke.command added: 'true'" in r.stderr
