"""A stamp's cache answers only what a fresh computation would: the gate facts it keeps depend on the
committed approvals; facts that checked an approval's signature are not kept at all (a signature's verdict
changes with the signers file, and with the time: `valid-before`); nothing computed in a shallow clone is
kept (what it can read depends on how deep the history is). A commit that only adds an approval, a code-only
commit after the configured signers changed or a key expired, and a clone unshallowed after a stamp, are
stamped as a stamp with no cache stamps them (read 51's F-0093..F-0096)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers

from support.flows import changed_command
from support.gitrepo import commit_all_ok, git, note
from support.paths import PY
from support.ssh_keys import approval_line, repository_id, signers_line

INTRODUCED = "whose command is not the one config.yaml configured at the task's base"


def _signers(repo: Path) -> Signers:
    return Signers(lambda: Git(repo))  # the command's own: git config names the trust root


def _fresh(repo: Path, commit: str) -> dict:
    return stamping.stamp_for(Git(repo), commit, _signers(repo), StampCache(None))[1]


def _blockers(stamped: dict, tid: str) -> list[str]:
    return stamped["tasks"][tid]["blockers"]


def test_an_approval_or_a_signer_changed_outside_the_task_is_stamped_as_from_scratch(changed, repo, monkeypatch):
    keys, signers, config, tid = changed["keys"], changed["signers"], changed["config"], changed["tid"]
    unapproved = changed["unapproved"]
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


@pytest.fixture
def changed(h, repo, tmp_path) -> dict:
    return changed_command(h, repo, tmp_path)


def _approve(repo: Path, d: dict, bind: bool = False) -> str:
    line = approval_line("config-change", d["config"].read_bytes(), d["keys"]["human"][0],
                         bind=(repository_id(repo), d["before"]) if bind else None)
    (repo / ".harness/approvals.jsonl").write_text(line)
    return commit_all_ok(repo, "approved")


def test_a_signature_is_checked_again_at_every_stamp(changed, repo, monkeypatch):
    """F-0093: the same signers file may answer otherwise later (a key past its valid-before): a stamp after that
    says so, and the code-only quick stamp leaves such a task to the full one."""
    from harness.signatures import signing

    tid = changed["tid"]
    approved = _approve(repo, changed)
    stamping.stamp(Git(repo), approved, _signers(repo))
    assert not any(INTRODUCED in b for b in _blockers(note(repo, approved), tid))
    monkeypatch.setattr(signing, "verify", lambda *a, **k: "Signature verification failed: key expired")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    code = commit_all_ok(repo, "code only, the key expired since")
    monkeypatch.chdir(repo)
    assert stamping.quick_stamp_head() is False and note(repo, code) is None
    stamping.stamp(Git(repo), code, _signers(repo))
    assert note(repo, code) == _fresh(repo, code)
    assert any(INTRODUCED in b for b in _blockers(note(repo, code), tid))


def _shallow_clone(repo: Path, where: Path, depth: int) -> Path:
    subprocess.run(["git", "clone", "-q", "--depth", str(depth), f"file://{repo}", str(where)], check=True,
                   capture_output=True)
    return where


@pytest.mark.parametrize("approval", ["none", "bound"])
def test_facts_read_in_a_shallow_clone_are_not_kept_past_unshallowing(changed, repo, tmp_path, monkeypatch, approval):
    """F-0095 (no approval: the clone lacks the task's base, where the changed command is told) and F-0094 (a bound
    approval: the clone has the base but not the root commit that names the repository): what a stamp finds in a
    shallow clone is not kept for after `git fetch --unshallow`."""
    tid = changed["tid"]
    stamped = _approve(repo, changed, bind=True) if approval == "bound" else changed["unapproved"]
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    depth = 4 if approval == "bound" else 2  # from the tip: (code, approved, unapproved, base) / (code, unapproved)
    clone = _shallow_clone(repo, tmp_path / "clone", depth)
    git(clone, "config", "harness.allowedSigners", str(changed["signers"]))
    stamping.stamp(Git(clone), stamped, _signers(clone))
    git(clone, "fetch", "-q", "--unshallow")
    (clone / "app.py").write_text("def answer():\n    return 40\n")
    code = commit_all_ok(clone, "code only, unshallowed")
    monkeypatch.chdir(clone)
    stamping.quick_stamp_head()
    assert note(clone, code) in (None, _fresh(clone, code))
    stamping.stamp(Git(clone), code, _signers(clone))
    assert note(clone, code) == _fresh(clone, code)
    assert any(INTRODUCED in b for b in _blockers(note(clone, code), tid)) is (approval == "none")


def test_a_signers_path_of_an_unknown_user_is_refused_in_words(changed, repo):
    """F-0096: `~nosuchuser/...` cannot be expanded: the approval is not checked against it, and nothing crashes."""
    from harness.errors import HarnessError
    from harness.signatures import trust

    git(repo, "config", "harness.allowedSigners", "~nosuchuser-harness-test/allowed_signers")
    with pytest.raises(HarnessError, match="nosuchuser-harness-test"):
        trust.configured(Git(repo))
    approved = _approve(repo, changed)
    r = subprocess.run([PY, "-m", "harness", "stamp", approved], cwd=repo, capture_output=True, text=True)
    assert "Traceback" not in r.stderr and "nosuchuser-harness-test" in r.stdout + r.stderr, r.stderr


def test_an_allowed_signers_option_of_an_unknown_user_is_refused_in_words(repo):
    """Read 52's F-0102: the file named on the command line (`--allowed-signers`) as well as by git config."""
    from harness.errors import HarnessError
    from harness.signatures import trust

    with pytest.raises(HarnessError, match="no home folder"):
        trust.named_file("~nosuchuser-harness-test/allowed_signers")
