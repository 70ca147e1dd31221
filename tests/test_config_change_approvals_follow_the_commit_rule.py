"""`harness approve config-change` approves what the commit rule asks a human for, and the gate counts the chain
of approved changes since a task's base (read 102's F-0359, F-0360).

F-0359: the commit rule refused a config.yaml that drops a `redaction.patterns` entry unless a config-change
approval covered it, yet `approve` listed only the evidence commands: a drop alone could not be approved at all,
and one bundled with a command change was approved unseen (the signature covers the whole file). F-0360: the gate
looked for an approval bound to the task's base only, and `approve` binds to HEAD's file: a second approved change
of a command blocked the task for good."""

from __future__ import annotations

import json

import pytest
import yaml

from support.cli import gate_json, validate_staged
from support.gitrepo import commit_all_ok, git, head
from support.paths import PY
from support.processes import run_in_pty
from support.protected_project import write
from support.records import set_config
from support.ssh_keys import approval_line, make_key, repository_id, signers_line

PATTERN = "ACMEINT-[0-9]{10}"
KEY = "ACMEINT-4815162342"
CONFIG = ".harness/config.yaml"
APPROVALS = ".harness/approvals.jsonl"


def _changes(repo) -> list[str]:
    """What `harness approve config-change` would show and sign for the working config.yaml."""
    from harness.approvals.approve import config_changes
    from harness.gitio.git import Git
    from harness.store.layout import open_layout

    return config_changes(open_layout(repo), Git(repo))[1]


@pytest.fixture
def signer(h, repo, tmp_path):
    """A repository whose committed config.yaml names a secret pattern, and an approver listed beside it."""
    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    set_config(repo, f"\nredaction:\n  patterns: ['{PATTERN}']\n")
    commit_all_ok(repo, "adopt, with the project's secret pattern and its approver")
    return key


def _drop_pattern(repo) -> None:
    config = repo / CONFIG
    config.write_text(config.read_text().replace(f"['{PATTERN}']", "[]"))
    assert PATTERN not in config.read_text()


def _change_a_command(repo) -> None:
    config = repo / CONFIG
    doc = yaml.safe_load(config.read_text())
    doc["evidence"] = {**(doc.get("evidence") or {}), "lint": {"command": [PY, "-c", "pass"]}}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))


# -- F-0359: approve shows and signs every item the commit rule asks a human for -------------------------------

def test_approve_lists_a_dropped_redaction_pattern(signer, repo):
    _drop_pattern(repo)
    changes = _changes(repo)
    assert any(PATTERN in c and "redaction" in c for c in changes), changes


def test_a_drop_bundled_with_a_command_change_is_listed_beside_it(signer, repo):
    _drop_pattern(repo)
    _change_a_command(repo)
    changes = _changes(repo)
    assert any("evidence.lint.command" in c for c in changes), changes
    assert any(PATTERN in c for c in changes), changes


def test_a_drop_approved_at_a_terminal_is_signed_and_committed(signer, repo):
    _drop_pattern(repo)
    code, screen = run_in_pty(repo, ["approve", "config-change"], "approve")
    assert code == 0 and PATTERN in screen, screen
    record = json.loads((repo / APPROVALS).read_text().splitlines()[-1])
    assert any(PATTERN in c for c in record["changes"]), record
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_a_pattern_added_needs_no_approval_still(signer, repo):
    # The legitimate neighbour: adding a pattern (or only a comment) loosens nothing, approve and commit agree.
    config = repo / CONFIG
    config.write_text(config.read_text().replace(f"['{PATTERN}']", f"['{PATTERN}', 'zqx[0-9]{{6}}']"))
    assert _changes(repo) == []
    assert validate_staged(repo).returncode == 0


def test_an_approved_drop_still_refuses_a_value_of_the_pattern_in_the_same_commit(signer, repo):
    # What the approved drop lets go is named in the approval; a value of it in the same commit is still refused.
    _drop_pattern(repo)
    assert run_in_pty(repo, ["approve", "config-change"], "approve")[0] == 0
    (repo / ".harness/NOTES.md").write_text(f"the integration key is {KEY}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr


# -- F-0360: the gate counts a chain of approved steps since the base -------------------------------------------

PROOF = "import sys\nsys.exit(0)\n"
NOT_CONFIGURED = "is not the one config.yaml configured at the task's base"


@pytest.fixture
def chain(h, repo, tmp_path):
    """A task on a base whose committed allowed_signers lists a human; returns (task id, the human's key)."""
    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    write(repo, {".harness/allowed_signers": signers_line("test@example.com", public), "proof.py": PROOF})
    commit_all_ok(repo, "an approver")
    return h.ok("task", "new", "prove it").out.strip(), key


def _step(repo, argv: list[str]) -> tuple[bytes, bytes]:
    """Configure `custom.proof` to run ``argv`` (required by the gate): (config.yaml before, after)."""
    config = repo / CONFIG
    before = config.read_bytes()
    doc = yaml.safe_load(before)
    doc["evidence"] = {**(doc.get("evidence") or {}), "custom.proof": {"command": argv}}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["verification"]["custom.proof"] = "required"
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    return before, config.read_bytes()


def _approve(repo, key, before: bytes, after: bytes) -> None:
    """A human's approval of config.yaml going from ``before`` to ``after``, bound as `approve` binds it."""
    line = approval_line("config-change", after, key, bind=(repository_id(repo), before))
    path = repo / APPROVALS
    path.write_text((path.read_text() if path.exists() else "") + line)


def _blockers(h) -> list[str]:
    h.ok("requirement", "add", "the proof holds", "--priority", "must")
    h.ok("evidence", "custom.proof")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.proof")
    code, report = gate_json(h)
    assert "blockers" in report, (code, report)
    return [b for b in report["blockers"] if NOT_CONFIGURED in b]


def test_two_approved_committed_command_changes_verify(h, repo, chain):
    _, key = chain
    _approve(repo, key, *_step(repo, [PY, "proof.py"]))
    commit_all_ok(repo, "first command change, approved")
    _approve(repo, key, *_step(repo, [PY, "proof.py", "--again"]))
    commit_all_ok(repo, "second command change, approved")
    assert _blockers(h) == []


def test_an_approved_commit_then_an_approved_working_tree_change_verify(h, repo, chain):
    _, key = chain
    _approve(repo, key, *_step(repo, [PY, "proof.py"]))
    commit_all_ok(repo, "first command change, approved")
    _approve(repo, key, *_step(repo, [PY, "proof.py", "--again"]))
    assert _blockers(h) == []


def test_a_step_with_no_approval_blocks_and_names_the_approval_to_make(h, repo, chain):
    _, key = chain
    _approve(repo, key, *_step(repo, [PY, "proof.py"]))
    commit_all_ok(repo, "first command change, approved")
    _step(repo, [PY, "proof.py", "--again"])
    commit_all_ok(repo, "second command change, with no approval")
    blockers = _blockers(h)
    assert len(blockers) == 1 and f"harness approve config-change --commit {head(repo)[:12]}" in blockers[0], blockers


def test_a_step_whose_approval_is_bound_to_another_step_blocks(h, repo, chain):
    _, key = chain
    first = _step(repo, [PY, "proof.py"])
    _approve(repo, key, *first)
    commit_all_ok(repo, "first command change, approved")
    _, after = _step(repo, [PY, "proof.py", "--again"])
    _approve(repo, key, b"version: 1\n", after)  # the right file, approved from one the history never held
    commit_all_ok(repo, "second command change, approved against another file")
    blockers = _blockers(h)
    assert len(blockers) == 1 and f"--commit {head(repo)[:12]}" in blockers[0], blockers


def test_a_committed_step_approved_afterwards_at_a_terminal_verifies(h, repo, chain):
    # The gate and `approve` agree: the step the gate names is the one `approve --commit` shows and signs.
    _, key = chain
    _approve(repo, key, *_step(repo, [PY, "proof.py"]))
    commit_all_ok(repo, "first command change, approved")
    _step(repo, [PY, "proof.py", "--again"])
    commit_all_ok(repo, "second command change, with no approval")
    code, screen = run_in_pty(repo, ["approve", "config-change", "--commit", head(repo)], "approve")
    assert code == 0 and "evidence.custom.proof.command" in screen, screen
    assert _blockers(h) == []


def test_a_step_that_needs_no_approval_leaves_the_chain_whole(h, repo, chain):
    # The legitimate neighbour: after the approved change, a commit that only adds a redaction pattern (no command
    # changes, no pattern goes) needs no approval at commit, and none in the chain either.
    _, key = chain
    _approve(repo, key, *_step(repo, [PY, "proof.py"]))
    commit_all_ok(repo, "command change, approved")
    config = repo / CONFIG
    doc = yaml.safe_load(config.read_text())
    doc["redaction"] = {**(doc.get("redaction") or {}), "patterns": ["zqx[0-9]{6}"]}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    assert validate_staged(repo).returncode == 0
    commit_all_ok(repo, "a pattern added")
    assert _blockers(h) == []


def test_approving_the_root_commit_s_change_is_refused_with_the_way_forward(signer, repo):
    # The commit that adopts the harness configures its commands itself: no parent's file to approve a step from.
    root = git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.split()[0]
    code, screen = run_in_pty(repo, ["approve", "config-change", "--commit", root], "approve")
    assert code == 1 and "has no parent: the commit that adopts the harness configures its commands itself" in screen
    assert "harness approve config-change" in screen and not (repo / ".harness/approvals.jsonl").exists(), screen
