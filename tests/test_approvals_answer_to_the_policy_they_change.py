"""An approval counts only where the policy it changes vouches for it: on a merge, the side whose policy it changes; and an approval already spent restores nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.flows import gated_done
from support.gitrepo import git
from support.ssh_keys import approval_line, make_key, signers_line

PY = sys.executable
LOOSER = ("major_allowed: 0", "major_allowed: 1")


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    folder = tmp_path / "keys"
    return {name: make_key(folder, name) for name in ("human", "agent")}


@pytest.fixture
def adopted(h, repo: Path, keys) -> Path:
    """A repository whose committed allowed_signers lists the human approver only."""
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    return repo


def add_approval(repo: Path, line: str) -> None:
    path = repo / ".harness/approvals.jsonl"
    path.write_text((path.read_text() if path.exists() else "") + line)


def loosen(repo: Path) -> bytes:
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace(*LOOSER))
    return gate.read_bytes()


def test_a_merge_with_an_unrelated_parent_carrying_its_own_signers_cannot_approve_a_loosening(adopted, keys):
    repo: Path = adopted
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    # An orphan history whose allowed_signers lists the agent's own key.
    git(repo, "checkout", "-q", "--orphan", "evil")
    (repo / ".harness/allowed_signers").write_text(signers_line("agent@example.com", keys["agent"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "unrelated root")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-commit", "--no-ff", "-s", "ours", "--allow-unrelated-histories", "evil")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace(*LOOSER))
    signers = (repo / ".harness/allowed_signers").read_bytes()
    add_approval(repo, approval_line("gate-change", gate.read_bytes(), keys["agent"][0], signer="agent@example.com"))
    add_approval(repo, approval_line("signers-change", signers, keys["agent"][0], signer="agent@example.com"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "merge")
    r = cli(repo, "audit", "--from", base)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stdout + r.stderr


def test_a_merge_with_an_unrelated_parent_cannot_approve_swapping_an_evidence_command(h, repo, keys):
    config = repo / ".harness/config.yaml"
    config.write_text("version: 1\nevidence:\n  unit_test:\n    command: [python3, -m, pytest]\n")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "checkout", "-q", "--orphan", "evil")
    (repo / ".harness/allowed_signers").write_text(signers_line("agent@example.com", keys["agent"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "unrelated root")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-commit", "--no-ff", "-s", "ours", "--allow-unrelated-histories", "evil")
    config.write_text("version: 1\nevidence:\n  unit_test:\n    command: ['true']\n")
    add_approval(repo, approval_line("config-change", config.read_bytes(), keys["agent"][0],
                                     signer="agent@example.com"))
    add_approval(repo, approval_line("signers-change", (repo / ".harness/allowed_signers").read_bytes(),
                                     keys["agent"][0], signer="agent@example.com"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "merge")
    r = cli(repo, "audit", "--from", base)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("second_adoption", ["unrelated root", "fork from before the adoption"])
def test_a_task_done_under_a_second_adoptions_own_policy_is_not_merged_in_unjudged(h, repo, keys, second_adoption):
    failing = f"[{PY}, -c, 'import sys; sys.exit(1)']"
    config = repo / ".harness/config.yaml"
    config.write_text(f"version: 1\nevidence:\n  unit_test:\n    command: {failing}\n")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt: the unit tests fail")
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    # A second adoption: an unrelated root whose policy says `pass` proves the unit tests.
    if second_adoption == "unrelated root":
        git(repo, "checkout", "-q", "--orphan", "evil")
    else:  # the commit before `harness init` was committed: its child adopts on its own
        git(repo, "checkout", "-q", "-b", "evil", "HEAD~1")
        git(repo, "checkout", "main", "--", ".harness")
    config.write_text(f"version: 1\nevidence:\n  unit_test:\n    command: [{PY}, -c, pass]\n")
    (repo / ".harness/allowed_signers").write_text(signers_line("agent@example.com", keys["agent"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "unrelated root")
    tid = gated_done(h)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "done under the root's own policy")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-commit", "--no-ff", "-s", "ours", "--allow-unrelated-histories", "evil")
    git(repo, "checkout", "evil", "--", f".harness/tasks/{tid}")
    add_approval(repo, approval_line("config-change", config.read_bytes(), keys["agent"][0],
                                     signer="agent@example.com"))
    add_approval(repo, approval_line("signers-change", (repo / ".harness/allowed_signers").read_bytes(),
                                     keys["agent"][0], signer="agent@example.com"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "merge the done task")
    assert "DONE" in (repo / f".harness/tasks/{tid}/task.yaml").read_text()
    r = cli(repo, "audit", "--from", base)
    assert r.returncode == 1 and "one-adoption" in r.stderr, r.stdout + r.stderr


def test_an_approval_already_spent_cannot_restore_a_loosening_a_human_later_tightened_back(adopted, keys):
    gate = adopted / ".harness/gate.yaml"
    strict = gate.read_text()
    add_approval(adopted, approval_line("gate-change", loosen(adopted), keys["human"][0]))
    assert validate_staged(adopted).returncode == 0
    git(adopted, "commit", "-qm", "loosen, approved")
    gate.write_text(strict)  # the human tightens it back: no approval needed
    assert validate_staged(adopted).returncode == 0
    git(adopted, "commit", "-qm", "tighten again")
    loosen(adopted)  # the agent restores the approved bytes; the old approval is still in the file
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "earlier change" in r.stderr, r.stderr
