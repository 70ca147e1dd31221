"""Approvals are SSH signatures verified against an allowed-signers trust root: a line written
without the approver's key, with an unlisted key, or edited after signing counts as none."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.gitrepo import git
from support.processes import run_in_pty
from support.ssh_keys import approval_line, make_key, signers_line

PY = sys.executable
LOOSER = ("major_allowed: 0", "major_allowed: 1")


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    # Made once for the module: no test changes a key, and each test's repository chooses
    # which of them it trusts.
    folder = tmp_path_factory.mktemp("keys")
    return {name: make_key(folder, name) for name in ("human", "agent", "ci")}


@pytest.fixture
def adopted(h, repo, keys) -> Path:
    """A repository whose committed allowed_signers lists the human approver only."""
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    return repo


def loosen(repo: Path) -> bytes:
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace(*LOOSER))
    return gate.read_bytes()


def add_approval(repo: Path, line: str) -> None:
    path = repo / ".harness/approvals.jsonl"
    path.write_text((path.read_text() if path.exists() else "") + line)


def test_a_hand_written_unsigned_approval_counts_as_none_and_says_so(adopted):
    add_approval(adopted, approval_line("gate-change", loosen(adopted), key=None))
    r = validate_staged(adopted)
    assert r.returncode == 1, r.stderr
    assert "gate-only-tightens" in r.stderr and "unsigned" in r.stderr and "counts as none" in r.stderr


def test_an_approval_signed_by_a_listed_key_lets_exactly_that_loosening_through(adopted, keys):
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0]))
    r = validate_staged(adopted)
    assert r.returncode == 0, r.stderr


def test_an_approval_signed_by_an_unlisted_key_counts_as_none(adopted, keys):
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["agent"][0]))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "does not verify" in r.stderr, r.stderr


def test_an_approval_edited_after_signing_counts_as_none(adopted, keys):
    line = json.loads(approval_line("gate-change", loosen(adopted), keys["human"][0]))
    line["changes"] = ["nothing to see here"]
    add_approval(adopted, json.dumps(line) + "\n")
    r = validate_staged(adopted)
    assert r.returncode == 1 and "does not verify" in r.stderr, r.stderr


def test_a_signature_under_another_principal_counts_as_none(adopted, keys):
    # The human's key, but claimed for a principal the allowed signers do not give that key.
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0], signer="boss@example.com"))
    assert validate_staged(adopted).returncode == 1


def test_a_key_added_in_the_same_commit_cannot_sign_that_commits_approvals(adopted, keys):
    signers = adopted / ".harness/allowed_signers"
    signers.write_text(signers.read_text() + signers_line("agent@example.com", keys["agent"][1]))
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["agent"][0], signer="agent@example.com"))
    add_approval(adopted, approval_line("signers-change", signers.read_bytes(), keys["agent"][0],
                                        signer="agent@example.com"))
    r = validate_staged(adopted)
    assert r.returncode == 1
    assert "signers-change-needs-approval" in r.stderr and "gate-only-tightens" in r.stderr


def test_changing_allowed_signers_needs_an_approval_by_an_already_listed_key(adopted, keys):
    signers = adopted / ".harness/allowed_signers"
    signers.write_text(signers.read_text() + signers_line("second@example.com", keys["agent"][1]))
    refused = validate_staged(adopted)
    assert refused.returncode == 1 and "signers-change-needs-approval" in refused.stderr
    add_approval(adopted, approval_line("signers-change", signers.read_bytes(), keys["human"][0]))
    assert validate_staged(adopted).returncode == 0


def test_swapping_an_evidence_command_needs_a_signed_approval(h, repo, keys):
    config = repo / ".harness/config.yaml"
    config.write_text("version: 1\nevidence:\n  unit_test:\n    command: [python3, -m, pytest]\n")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    config.write_text("version: 1\nevidence:\n  unit_test:\n    command: ['true']\n")
    add_approval(repo, approval_line("config-change", config.read_bytes(), key=None))
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr and "unsigned" in r.stderr
    (repo / ".harness/approvals.jsonl").write_text(approval_line("config-change", config.read_bytes(),
                                                                 keys["human"][0]))
    assert validate_staged(repo).returncode == 0


def test_gate_refuses_to_judge_under_a_loosening_whose_approval_is_unsigned(adopted, h, task):
    add_approval(adopted, approval_line("gate-change", loosen(adopted), key=None))
    r = h("gate", "--json")
    assert r.code == 2 and "unsigned" in json.loads(r.out)["error"]


def test_audit_with_an_external_trust_root_ignores_the_signers_the_repository_carries(adopted, keys, tmp_path):
    base = git(adopted, "rev-parse", "HEAD").stdout.strip()
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0]))
    assert validate_staged(adopted).returncode == 0
    git(adopted, "commit", "-qm", "loosen, approved")
    ci_root = tmp_path / "ci_allowed_signers"
    ci_root.write_text(signers_line("test@example.com", keys["ci"][1]))
    args = ("audit", "--from", base, "--allowed-signers", str(ci_root))
    r = cli(adopted, *args)
    assert r.returncode == 1 and "does not verify" in r.stderr and str(ci_root) in r.stderr, r.stderr
    ci_root.write_text(signers_line("test@example.com", keys["human"][1]))
    r = cli(adopted, *args)
    assert r.returncode == 0, r.stderr


def test_git_config_names_the_trust_root_outside_the_repository(adopted, keys, tmp_path):
    outside = tmp_path / "outside_signers"
    outside.write_text(signers_line("test@example.com", keys["ci"][1]))
    git(adopted, "config", "harness.allowedSigners", str(outside))
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0]))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "harness.allowedSigners" in r.stderr
    outside.write_text(signers_line("test@example.com", keys["human"][1]))
    assert validate_staged(adopted).returncode == 0


def test_approve_refuses_to_record_a_signature_that_would_count_as_none(adopted, keys):
    git(adopted, "config", "user.signingKey", str(keys["agent"][0]))  # not in allowed_signers
    loosen(adopted)
    code, screen = run_in_pty(adopted, ["approve", "gate-change"], "approve")
    assert code == 1 and "would not count" in screen, screen
    assert not (adopted / ".harness/approvals.jsonl").exists()


def test_approve_signers_change_at_a_terminal_by_a_listed_key(adopted, keys):
    git(adopted, "config", "user.signingKey", str(keys["human"][0]))
    signers = adopted / ".harness/allowed_signers"
    signers.write_text(signers.read_text() + signers_line("second@example.com", keys["agent"][1]))
    code, screen = run_in_pty(adopted, ["approve", "signers-change"], "approve")
    assert code == 0 and "adds signer second@example.com" in screen, screen
    assert validate_staged(adopted).returncode == 0


def test_approve_without_a_signing_key_is_refused_before_the_prompt(adopted):
    loosen(adopted)
    code, screen = run_in_pty(adopted, ["approve", "gate-change"], "approve")
    assert code == 1 and "no SSH key" in screen and 'type "approve"' not in screen, screen
    assert not (adopted / ".harness/approvals.jsonl").exists()


@pytest.mark.e2e  # a real push through the installed pre-receive hook
def test_the_servers_git_config_names_the_approvers_for_the_pre_receive_hook(adopted, keys, h, tmp_path):
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert h("install", "--server", cwd=bare).code == 0
    git(adopted, "remote", "add", "origin", str(bare))
    git(adopted, "push", "-q", "origin", "main")
    server_signers = tmp_path / "server_signers"
    server_signers.write_text(signers_line("test@example.com", keys["ci"][1]))
    git(bare, "config", "harness.allowedSigners", str(server_signers))
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0]))
    assert validate_staged(adopted).returncode == 0  # the repository's own list accepts it locally
    git(adopted, "commit", "-qm", "loosen, approved by a key the server does not list")
    p = git(adopted, "push", "origin", "main", check=False)
    assert p.returncode != 0 and "does not verify" in p.stderr, p.stderr
    server_signers.write_text(signers_line("test@example.com", keys["human"][1]))
    p = git(adopted, "push", "origin", "main", check=False)
    assert p.returncode == 0, p.stderr
