"""`harness install --server` and the pre-receive hook: real pushes to a bare repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import Harness, validate_staged
from support.flows import gated_done, hand_done_no_verify
from support.gitrepo import NOTES, commit_all_ok, git, head, out, push, remote_ref
from support.templates import Template, copies_naming, template

pytestmark = pytest.mark.e2e  # real pushes through the installed pre-receive hook


@pytest.fixture(scope="session")
def server_template(tmp_path_factory, h_template) -> Template:
    """What ``server`` copies: `harness init` committed and pushed as main to a bare repository
    holding the pre-receive hook of `harness install --server`."""

    def build(repo: Path, h: Harness) -> dict:
        commit_all_ok(repo, "harness init")
        bare = repo.parent / "remote.git"
        git(repo.parent, "init", "-q", "--bare", str(bare))
        r = h("install", "--server", cwd=bare)
        assert r.code == 0, r.text
        assert (bare / "hooks" / "pre-receive").is_file()
        git(repo, "remote", "add", "origin", str(bare))
        p = push(repo, "origin", "main")
        assert p.returncode == 0, out(p)
        # A copy must not point back here: only origin's URL names this folder, and a copy re-points it.
        assert copies_naming(repo.parent, str(repo.parent)) == [repo / ".git" / "config"]
        return {}

    return template(tmp_path_factory, "pre-receive-server", build, on=h_template)


@pytest.fixture
def server(server_template, h, repo, tmp_path) -> Path:
    """A bare repository with the harness pre-receive hook, holding ``repo``'s main (harness init):
    origin of ``repo``, a copy of ``server_template``."""
    return tmp_path / "remote.git"


def objects_only_in_quarantine(bare: Path, sha: str) -> bool:
    return git(bare, "cat-file", "-e", sha, check=False).returncode != 0


def test_forged_done_pushed_with_no_verify_is_refused_server_side(h, repo, server):
    before = remote_ref(server, "refs/heads/main")
    tid, forged = hand_done_no_verify(repo, h)
    p = push(repo, "--no-verify", "origin", "main")
    assert p.returncode != 0, out(p)
    text = out(p)
    assert "pre-receive" in text and forged[:12] in text
    assert f".harness/tasks/{tid}/" in text and "[projection-matches-ledger]" in text
    assert "rejected as a whole" in text
    assert remote_ref(server, "refs/heads/main") == before
    assert objects_only_in_quarantine(server, forged), "git kept the refused objects"


def test_legitimate_task_and_its_notes_ref_in_one_push_are_accepted(h, repo, server):
    gated_done(h)
    done = commit_all_ok(repo, "done")
    h.ok("stamp")
    p = push(repo, "origin", "main", NOTES)
    assert p.returncode == 0, out(p)
    assert remote_ref(server, "refs/heads/main") == done
    assert remote_ref(server, NOTES) == head(repo, NOTES)
    assert "no problems" in out(p)


def test_a_second_pushed_ref_is_checked_and_rejects_the_whole_push(h, repo, server):
    before = remote_ref(server, "refs/heads/main")
    gated_done(h)
    done = commit_all_ok(repo, "done")
    git(repo, "switch", "-q", "-c", "shortcut")
    _, forged = hand_done_no_verify(repo, h, "Second ref")
    git(repo, "switch", "-q", "main")
    # The pre-commit framework's pre-push would see only the first of these refs.
    p = push(repo, "--no-verify", "origin", "main", "shortcut")
    assert p.returncode != 0, out(p)
    assert forged[:12] in out(p) and "refs/heads/shortcut" in out(p)
    assert remote_ref(server, "refs/heads/main") == before, "the clean ref was updated despite the rejection"
    assert remote_ref(server, "refs/heads/shortcut") is None
    assert done != before


def test_a_forged_done_already_on_another_pushed_ref_is_checked_once_and_still_refused(h, repo, server):
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "tag", "-a", "v1", "-m", "release")
    p = push(repo, "--no-verify", "origin", "main", "v1")
    assert p.returncode != 0 and out(p).count(f"in commit {forged[:12]}") == 1, out(p)


def test_a_note_in_the_push_that_contradicts_the_checks_is_reported_and_outvoted(h, repo, server):
    tid, forged = hand_done_no_verify(repo, h)
    lie = json.dumps({"commit": forged, "verdict": "PASS", "tasks": {tid: {"state": "DONE", "gate": "PASS"}}})
    git(repo, "notes", "--ref", NOTES, "add", "-f", "-m", lie, forged)
    p = push(repo, "--no-verify", "origin", "main", NOTES)
    assert p.returncode != 0, out(p)
    assert "says PASS" in out(p) and "recomputation decides" in out(p)


def test_deleting_a_branch_and_pushing_code_without_harness_changes_are_accepted(h, repo, server):
    git(repo, "push", "-q", "origin", "main:old")
    (repo / "app.py").write_text("def answer():\n    return 7\n")
    code = commit_all_ok(repo, "code")
    p = push(repo, "origin", "main", ":old")
    assert p.returncode == 0, out(p)
    assert remote_ref(server, "refs/heads/main") == code and remote_ref(server, "refs/heads/old") is None


def test_install_server_refuses_a_clone_and_chains_an_existing_hook(h, repo, server, tmp_path):
    r = h("install", "--server")
    assert r.code == 1 and "not a bare repository" in r.err, r.text

    other = tmp_path / "other.git"
    git(tmp_path, "init", "-q", "--bare", str(other))
    mine = other / "hooks" / "pre-receive"
    mine.write_text("#!/bin/sh\ncat > \"$GIT_DIR/mine-saw\"\nexit 0\n")
    mine.chmod(0o755)
    r = h("install", "--server", cwd=other)
    assert r.code == 0 and "kept your pre-receive hook" in r.out, r.text
    git(repo, "remote", "add", "other", str(other))
    p = push(repo, "other", "main")
    assert p.returncode == 0, out(p)
    assert "refs/heads/main" in (other / "mine-saw").read_text()
    _, forged = hand_done_no_verify(repo, h)
    p = push(repo, "--no-verify", "other", "main")
    assert p.returncode != 0 and forged[:12] in out(p), out(p)

    r = h("uninstall", "--server", cwd=other)
    assert r.code == 0 and "restored your pre-receive hook" in r.out, r.text
    assert "harness" not in mine.read_text()


def test_a_pushed_object_the_hook_cannot_see_fails_closed(h, repo, server):
    """Outside git's quarantine (or if libgit2 ignored it) the pushed tip is invisible: that is
    no pass."""
    _, forged = hand_done_no_verify(repo, h)
    old = remote_ref(server, "refs/heads/main")
    proc = subprocess.run([sys.executable, "-m", "harness", "hook", "pre-receive"], cwd=server,
                          input=f"{old} {forged} refs/heads/main\n", capture_output=True, text=True,
                          env={**os.environ, "GIT_DIR": "."})
    assert proc.returncode == 2, proc.stderr
    assert forged[:12] in proc.stderr and "quarantine" in proc.stderr


def test_pre_receive_json_lists_every_pushed_ref_and_commit(h, repo, tmp_path):
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "json.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    report = tmp_path / "receive.json"
    hook = bare / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\n'{sys.executable}' -m harness hook pre-receive --json > '{report}'\n")
    hook.chmod(0o755)
    git(repo, "remote", "add", "origin", str(bare))
    start = head(repo)
    git(repo, "switch", "-q", "-c", "shortcut")
    _, forged = hand_done_no_verify(repo, h)
    p = push(repo, "--no-verify", "origin", "main", "shortcut")
    assert p.returncode != 0, out(p)
    doc = json.loads(report.read_text())
    refs = {r["ref"]: r for r in doc["range"]["refs"]}
    assert set(refs) == {"refs/heads/main", "refs/heads/shortcut"}
    assert refs["refs/heads/shortcut"]["commits"] == [forged]  # main's commits are counted once, under main
    assert start in refs["refs/heads/main"]["commits"]
    assert doc["checked"] == refs["refs/heads/main"]["commits"] + [forged] and doc["failed"] == 1


def test_a_merge_of_a_gated_done_branch_into_a_diverged_main_is_accepted(h, repo, server):
    git(repo, "switch", "-q", "-c", "feature")
    gated_done(h)
    commit_all_ok(repo, "done on the branch")
    git(repo, "switch", "-q", "main")
    (repo / "other.py").write_text("Y = 2\n")
    commit_all_ok(repo, "main moves on")
    git(repo, "merge", "-q", "--no-edit", "feature")
    merge = head(repo)
    assert len(git(repo, "rev-list", "--parents", "-n1", "HEAD").stdout.split()) == 3
    p = push(repo, "origin", "main", "feature")
    assert p.returncode == 0, out(p)
    assert remote_ref(server, "refs/heads/main") == merge


# -- found by review (#27's task F-0017, F-0018) --------------------------------------------------

def test_a_harness_folder_in_another_case_is_refused_at_commit_and_by_the_server(h, repo, server):
    """F-0017: `.HARNESS/` is `.harness/` on a case-insensitive checkout (macOS, Windows)."""
    before = remote_ref(server, "refs/heads/main")
    (repo / ".HARNESS" / "local").mkdir(parents=True)
    (repo / ".HARNESS" / "local" / "current").write_text("TASK-20990101-000000\n")
    c = validate_staged(repo)  # the commit hook's check, its code-only fast path first
    assert c.returncode != 0 and ".HARNESS" in c.stderr, c.stdout + c.stderr
    git(repo, "commit", "-qm", "the same, hooks skipped", "--no-verify")
    p = push(repo, "--no-verify", "origin", "main")
    assert p.returncode != 0 and ".HARNESS" in out(p), out(p)
    assert remote_ref(server, "refs/heads/main") == before


def test_a_force_push_to_a_symbolic_ref_is_judged_as_the_branch_it_moves(h, repo, server):
    """F-0018: git follows a symref on the server; the hook judged the alias's name, which nothing protects."""
    before = remote_ref(server, "refs/heads/main")
    git(server, "config", "receive.denyNonFastForwards", "false")
    git(server, "symbolic-ref", "refs/heads/trunk", "refs/heads/main")
    git(repo, "checkout", "-q", "--orphan", "evil")
    git(repo, "rm", "-rq", "--cached", ".")
    (repo / "other.txt").write_text("another history\n")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-qm", "another history", "--no-verify", "--", "other.txt")
    p = push(repo, "--no-verify", "-f", "origin", "evil:refs/heads/trunk")
    assert p.returncode != 0 and "refs/heads/main" in out(p), out(p)
    assert remote_ref(server, "refs/heads/main") == before
