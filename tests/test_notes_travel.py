"""Stamps travel: `harness install` pushes and fetches refs/notes/harness alongside branches, a plain
`git push` still pushes the current branch, and `audit` reads a fetched stamp without needing one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import Harness
from support.flows import gated_done
from support.gitrepo import NOTES, commit_all_ok, git, head, note, out, push, remote_ref

pytestmark = pytest.mark.e2e  # real pushes and fetches through installed hooks


@pytest.fixture
def remote(h, repo, tmp_path) -> Path:
    """``repo`` with .harness/ committed, an origin holding main, then `harness install`."""
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    r = h.ok("install")
    assert "pushed and fetched with origin" in r.out
    return bare


def config_all(repo: Path, key: str) -> list[str]:
    return git(repo, "config", "--get-all", key, check=False).stdout.split()


def test_install_adds_push_and_fetch_refspecs_for_the_notes(h, repo, remote):
    assert config_all(repo, "remote.origin.push") == ["HEAD", f"{NOTES}*:{NOTES}*"]
    assert f"+{NOTES}*:{NOTES}*" in config_all(repo, "remote.origin.fetch")
    h.ok("install")  # idempotent
    assert config_all(repo, "remote.origin.push") == ["HEAD", f"{NOTES}*:{NOTES}*"]


def test_plain_git_push_sends_the_branch_and_its_stamps(h, repo, remote):
    tid = gated_done(h)
    done = commit_all_ok(repo, "done")
    assert note(repo, done)["tasks"][tid]["gate"] == "PASS"
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(remote, "refs/heads/main") == done
    assert remote_ref(remote, NOTES) == head(repo, NOTES)


def test_plain_git_push_of_a_new_branch_still_works(h, repo, remote):
    git(repo, "switch", "-q", "-c", "feature")
    (repo / "app.py").write_text("def answer():\n    return 5\n")
    tip = commit_all_ok(repo, "code")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(remote, "refs/heads/feature") == tip
    assert remote_ref(remote, "refs/heads/main") != tip


def test_another_clone_fetches_the_stamps_and_audit_reads_them(h, repo, remote, tmp_path, capfd):
    base = head(repo)
    tid = gated_done(h)
    done = commit_all_ok(repo, "done")
    assert push(repo).returncode == 0
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    Harness(other, capfd).ok("install")
    git(other, "fetch", "-q")
    assert note(other, done)["tasks"][tid]["gate"] == "PASS"

    r = h("audit", "--json", "--before", base, "--to", "HEAD", cwd=other)
    assert r.code == 0, r.text
    (row,) = json.loads(r.out)["results"]
    assert row["note"] == {"verdict": "PASS", "agrees": True}

    bare_clone = tmp_path / "no-notes"
    git(tmp_path, "clone", "-q", str(remote), str(bare_clone))  # no notes fetched: no note needed
    r = h("audit", "--json", "--before", base, "--to", "HEAD", cwd=bare_clone)
    assert r.code == 0, r.text
    (row,) = json.loads(r.out)["results"]
    assert "note" not in row and row["gated"] == {tid: "PASS"}


def test_stamps_from_two_clones_converge_after_a_pull(h, repo, remote, tmp_path, capfd):
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    oh = Harness(other, capfd)
    oh.ok("install")
    (other / "app.py").write_text("def answer():\n    return 6\n")
    commit_all_ok(other, "their code")
    oh.ok("stamp")
    assert push(other).returncode == 0

    (repo / "notes.txt").write_text("mine\n")
    h.ok("stamp")  # a local stamp the remote does not have
    git(repo, "pull", "-q", "--no-rebase", "--no-edit")
    commit_all_ok(repo, "my code")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(remote, NOTES) == head(repo, NOTES)


def test_a_user_push_refspec_is_kept_and_uninstall_removes_only_ours(h, repo, tmp_path):
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "config", "--add", "remote.origin.push", "refs/heads/main:refs/heads/trunk")
    h.ok("install")
    assert config_all(repo, "remote.origin.push") == ["refs/heads/main:refs/heads/trunk", f"{NOTES}*:{NOTES}*"]
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(bare, "refs/heads/trunk") == head(repo) and remote_ref(bare, "refs/heads/main") is None
    h.ok("uninstall")
    assert config_all(repo, "remote.origin.push") == ["refs/heads/main:refs/heads/trunk"]
    assert f"+{NOTES}*:{NOTES}*" not in config_all(repo, "remote.origin.fetch")


def test_plain_push_and_fetch_work_before_any_stamp_exists(h, repo, remote, tmp_path):
    assert git(repo, "rev-parse", "--verify", "-q", NOTES, check=False).returncode != 0
    git(repo, "switch", "-q", "-c", "early")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert git(repo, "fetch", check=False).returncode == 0


def test_install_without_a_remote_says_to_run_it_again(h, repo):
    r = h.ok("install")
    assert "no remote yet" in r.out
