"""`harness approve gate-change` at a real (pseudo-)terminal: the one legitimate way to loosen the gate."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from support.gitrepo import git
from support.processes import run_in_pty
from support.ssh_keys import make_key, signers_line

LOOSER = ("major_allowed: 0", "major_allowed: 1")


def _loosen(repo):
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace(*LOOSER))


def _commit_gate(repo) -> subprocess.CompletedProcess:
    git(repo, "add", ".harness")
    return subprocess.run([sys.executable, "-m", "harness", "hook", "validate"], cwd=repo, capture_output=True, text=True)


@pytest.fixture
def approver(repo, tmp_path) -> str:
    """The approver's real SSH key, as git's user.signingKey, listed in the committed allowed_signers."""
    key, public = make_key(tmp_path / "keys", "approver")
    git(repo, "config", "user.signingKey", str(key))
    (repo / ".harness").mkdir(exist_ok=True)
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    return public


def test_approval_at_a_terminal_lets_exactly_that_gate_yaml_through(h, repo, approver):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    _loosen(repo)
    refused = _commit_gate(repo)
    assert refused.returncode == 1 and "gate-only-tightens" in refused.stderr

    code, screen = run_in_pty(repo, ["approve", "gate-change"], "approve")
    assert code == 0, screen
    assert "findings.major_allowed raised 0 → 1" in screen
    entry = json.loads((repo / ".harness/approvals.jsonl").read_text().splitlines()[-1])
    assert entry["kind"] == "gate-change" and entry["approved_by"] == "Test <test@example.com>"
    assert entry["signer"] == "test@example.com" and "BEGIN SSH SIGNATURE" in entry["signature"]
    assert _commit_gate(repo).returncode == 0

    # Any later edit changes the digest and voids the approval.
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("critical_allowed: 0", "critical_allowed: 2"))
    again = _commit_gate(repo)
    assert again.returncode == 1 and "gate-only-tightens" in again.stderr


def test_approval_declined_at_the_terminal_records_nothing(h, repo, approver):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    _loosen(repo)
    code, screen = run_in_pty(repo, ["approve", "gate-change"], "no")
    assert code == 1, screen
    assert not (repo / ".harness/approvals.jsonl").exists()


def test_approval_without_a_terminal_is_refused(h, repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    _loosen(repo)
    r = subprocess.run([sys.executable, "-m", "harness", "approve", "gate-change"], cwd=repo,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert r.returncode == 1 and "interactive terminal" in r.stderr
    assert not (repo / ".harness/approvals.jsonl").exists()
