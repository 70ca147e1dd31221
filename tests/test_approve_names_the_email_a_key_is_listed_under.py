"""An approval signed with a key the allowed signers list under another e-mail names that e-mail and the way out
(read 103's F-0362).

`harness approve` signs as git's committer e-mail. With the key listed under another one, the refusal said "list your
public key as `a@b KEYTYPE KEY` … or sign with a key that is listed": the key IS listed, and listing it again is an
allowed_signers change whose `approve signers-change` is refused with the very same hint. Now the refusal says under
which e-mail the key is listed and names `git config user.email` with it; approving as that e-mail works."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import validate_staged
from support.gitrepo import commit_all_ok, git
from support.processes import run_in_pty
from support.ssh_keys import make_key, signers_line

LISTED = "you@example.com"  # the e-mail the key is listed under; git's committer e-mail is test@example.com
APPROVALS = ".harness/approvals.jsonl"


@pytest.fixture
def listed_elsewhere(h, repo, tmp_path) -> Path:
    """A repository whose committed allowed_signers lists the signing key under LISTED, not the committer's e-mail;
    gate.yaml loosened in the working tree."""
    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    (repo / ".harness/allowed_signers").write_text(signers_line(LISTED, public))
    commit_all_ok(repo, "adopt, the approver listed")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("major_allowed: 0", "major_allowed: 1"))
    return repo


def test_the_refusal_names_the_email_the_key_is_listed_under_and_the_way_out(listed_elsewhere):
    code, screen = run_in_pty(listed_elsewhere, ["approve", "gate-change"], "approve")
    assert code == 1 and "would not count" in screen, screen
    assert LISTED in screen and "test@example.com" in screen, screen
    # GIT_COMMITTER_EMAIL (set in the tests' environment) comes before git config: the hint names it too.
    assert f"git config user.email {LISTED}" in screen and "GIT_COMMITTER_EMAIL" in screen, screen
    assert "sign with a key that is listed" not in screen, screen  # it is listed: no circle
    assert not (listed_elsewhere / APPROVALS).exists()


def test_approving_as_the_listed_email_counts(listed_elsewhere, monkeypatch):
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", LISTED)
    code, screen = run_in_pty(listed_elsewhere, ["approve", "gate-change"], "approve")
    assert code == 0 and "approved" in screen, screen
    assert validate_staged(listed_elsewhere).returncode == 0


def test_a_key_listed_nowhere_keeps_the_hint_to_list_it(h, repo, tmp_path):
    # The neighbour: a key the allowed signers do not list at all is still told to be listed (or another used).
    key, _ = make_key(tmp_path / "keys", "stranger")
    _, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    (repo / ".harness/allowed_signers").write_text(signers_line(LISTED, public))
    commit_all_ok(repo, "adopt, another approver listed")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("major_allowed: 0", "major_allowed: 1"))
    code, screen = run_in_pty(repo, ["approve", "gate-change"], "approve")
    assert code == 1 and "would not count" in screen and "sign with a key that is listed" in screen, screen
    assert "git config user.email" not in screen, screen
