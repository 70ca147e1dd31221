"""A stamp's cache answers only what a fresh computation would: the gate facts it keeps depend on the
committed approvals and, when an approval was checked, on the signers the repository's git config names.
A commit that only adds an approval, and a code-only commit after the configured signers changed, are
stamped as a stamp with no cache stamps them."""

from __future__ import annotations

from pathlib import Path

from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers

from support.cli import TO_VERIFYING, walk_to
from support.flows import new_task
from support.gitrepo import commit_all_ok, git, note
from support.paths import PY
from support.ssh_keys import approval_line, make_key, signers_line

SMOKE = f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'
INTRODUCED = "whose command is not the one config.yaml configured at the task's base"


def _signers(repo: Path) -> Signers:
    return Signers(lambda: Git(repo))  # the command's own: git config names the trust root


def _fresh(repo: Path, commit: str) -> dict:
    return stamping.stamp_for(Git(repo), commit, _signers(repo), StampCache(None))[1]


def _blockers(stamped: dict, tid: str) -> list[str]:
    return stamped["tasks"][tid]["blockers"]


def test_an_approval_or_a_signer_changed_outside_the_task_is_stamped_as_from_scratch(h, repo, tmp_path, monkeypatch):
    keys = {name: make_key(tmp_path / "keys", name) for name in ("human", "other")}
    signers = tmp_path / "allowed_signers"
    signers.write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "config", "harness.allowedSigners", str(signers))
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", SMOKE))
    commit_all_ok(repo, "a smoke command")
    tid = new_task(h)  # its base: this commit
    walk_to(h, *TO_VERIFYING)
    config.write_text(config.read_text().replace('"pass"]', '"pass  # this change"]'))
    h.ok("evidence", "custom.smoke")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    unapproved = commit_all_ok(repo, "the smoke command changed, not approved yet")
    stamping.stamp(Git(repo), unapproved, _signers(repo))
    assert any(INTRODUCED in b for b in _blockers(note(repo, unapproved), tid))

    # Only .harness/approvals.jsonl changes: the human approves the changed command.
    (repo / ".harness/approvals.jsonl").write_text(approval_line("config-change", config.read_bytes(), keys["human"][0]))
    approved = commit_all_ok(repo, "approved")
    stamping.stamp(Git(repo), approved, _signers(repo))
    assert note(repo, approved) == _fresh(repo, approved)
    assert not any(INTRODUCED in b for b in _blockers(note(repo, approved), tid))

    # The configured signers no longer hold the human's key; a code-only commit follows.
    signers.write_text(signers_line("test@example.com", keys["other"][1]))
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    code = commit_all_ok(repo, "code only")
    monkeypatch.chdir(repo)
    stamping.quick_stamp_head()  # what the post-commit hook tries first: it stamps, or declines and stamps nothing
    assert note(repo, code) in (None, _fresh(repo, code))
    stamping.stamp(Git(repo), code, _signers(repo))
    assert note(repo, code) == _fresh(repo, code)
    assert any(INTRODUCED in b for b in _blockers(note(repo, code), tid))
