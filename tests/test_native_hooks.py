"""`harness install` / `harness uninstall`: the native git hook shims, with real commits and pushes."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.cli import Harness, walk_to
from support.flows import gated_done, hand_done_no_verify
from support.gitrepo import (
    NOTES,
    commit_all_ok,
    commit_ok,
    git,
    head,
    note,
    out,
    push,
    push_ok,
    refused_commit,
    remote_ref,
)
from support.hook_repo import STAGES
from support.records import set_state_by_hand
from support.templates import Template, copies_naming, template

pytestmark = pytest.mark.e2e  # native git hook shims under real git commands


@dataclass
class Native:
    repo: Path
    remote: Path
    h: Harness
    hooks: Path


def install(h: Harness) -> str:
    return h.ok("install").text


@pytest.fixture(scope="session")
def native_template(tmp_path_factory, h_template) -> Template:
    """What ``native`` copies: the native shims installed, .harness/ committed through them, then a
    bare remote holding main."""

    def build(repo: Path, h: Harness) -> dict:
        install(h)
        commit_all_ok(repo, "harness init")
        remote = repo.parent / "remote.git"
        git(repo.parent, "init", "-q", "--bare", str(remote))
        git(repo, "remote", "add", "origin", str(remote))
        git(repo, "push", "-q", "--no-verify", "-u", "origin", "main")
        # A copy must not point back here: only origin's URL names this folder, and a copy re-points it.
        assert copies_naming(repo.parent, str(repo.parent)) == [repo / ".git" / "config"]
        return {}

    return template(tmp_path_factory, "native-shims", build, on=h_template)


@pytest.fixture
def native(native_template, h, repo, tmp_path) -> Native:
    """``repo`` with .harness/ committed, the native shims installed and a bare remote holding main
    (a copy of ``native_template``)."""
    return Native(repo, tmp_path / "remote.git", h, repo / ".git" / "hooks")


def test_install_writes_a_shim_per_stage_and_sets_notes_rewrite_ref(h, repo):
    text = install(h)
    for stage in STAGES:
        path = repo / ".git" / "hooks" / stage
        assert path.is_file() and os.access(path, os.X_OK), stage
        assert "engineering-harness native hook shim" in path.read_text()
        assert stage in text
    assert git(repo, "config", "notes.rewriteRef").stdout.strip() == NOTES


def test_legit_task_commits_and_pushes_through_the_shims_with_a_note(native):
    repo, h = native.repo, native.h
    tid = gated_done(h)
    done = commit_all_ok(repo, "done")
    stamp = note(repo, done)
    assert stamp is not None and stamp["tasks"][tid]["gate"] == "PASS"
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(native.remote, "refs/heads/main") == done
    assert "no problems" in out(p)


def test_hand_edit_is_refused_by_the_native_pre_commit(native):
    repo, h = native.repo, native.h
    tid = h.ok("task", "new", "Hand edit").out.strip()
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "claim DONE")
    assert f".harness/tasks/{tid}/task.yaml" in text and "harness transition" in text



def test_a_shim_kept_as_legacy_by_the_pre_commit_framework_still_judges_its_stage(native):
    # `pre-commit install` on top of the shims renames ours to pre-commit.legacy and runs it first.
    repo, h = native.repo, native.h
    hook = native.hooks / "pre-commit"
    hook.rename(native.hooks / "pre-commit.legacy")
    hook.write_text('#!/bin/sh\nexec "$(dirname "$0")/pre-commit.legacy" "$@"\n')
    hook.chmod(0o755)
    tid = h.ok("task", "new", "Legacy").out.strip()
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")  # a legitimate .harness/ change still commits
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "claim DONE")
    assert "unknown hook stage" not in text and f".harness/tasks/{tid}/task.yaml" in text

def test_no_verify_done_is_refused_by_the_native_pre_push(native):
    repo, h = native.repo, native.h
    before = remote_ref(native.remote, "refs/heads/main")
    tid, bad = hand_done_no_verify(repo, h)
    p = push(repo)
    assert p.returncode != 0, out(p)
    assert bad[:12] in out(p)
    assert remote_ref(native.remote, "refs/heads/main") == before


@pytest.mark.parametrize("how", ["cherry-pick", "revert"])
def test_a_forged_done_brought_by_cherry_pick_or_revert_warns_at_once_and_is_refused_at_push(native, how):
    """`git cherry-pick` and `git revert` commit with no pre-commit stage (only post-commit runs): a
    forged DONE made on a side branch and brought to main that way — picked, or restored by reverting
    the commit that had dropped it — is warned of by the stamp at once and refused by the push guard."""
    repo, h = native.repo, native.h
    before = remote_ref(native.remote, "refs/heads/main")
    git(repo, "checkout", "-q", "-b", "side")
    tid, forged = hand_done_no_verify(repo, h)
    git(repo, "rm", "-rq", f".harness/tasks/{tid}")
    dropped = commit_ok(repo, "drop it again", "--no-verify")
    git(repo, "checkout", "-q", "main")
    assert not (repo / ".harness" / "tasks" / tid / "task.yaml").exists()

    # A committer date of its own: picked onto its own parent within the same second, the pick would
    # otherwise be the very commit it copies (same tree, parent, message and dates), and the test would
    # depend on the clock.
    p = git(repo, *(["cherry-pick", forged] if how == "cherry-pick" else ["revert", "--no-edit", dropped]), check=False,
            env={"GIT_COMMITTER_DATE": "2030-01-01T00:00:00Z"})
    assert p.returncode == 0, out(p)
    brought = head(repo)
    assert (repo / ".harness" / "tasks" / tid / "task.yaml").is_file()  # the forged DONE is on main
    warned = out(p)
    assert "WARNING: this commit will be refused at push" in warned and brought[:12] in warned, warned
    assert f".harness/tasks/{tid}/task.yaml [projection-matches-ledger]" in warned

    p = push(repo)
    assert p.returncode != 0 and brought[:12] in out(p), out(p)
    assert f".harness/tasks/{tid}/task.yaml" in out(p)
    assert forged[:12] not in out(p) and dropped[:12] not in out(p)  # neither side commit is on main
    assert remote_ref(native.remote, "refs/heads/main") == before


def test_native_new_branch_to_an_empty_remote_is_checked(native, tmp_path):
    repo, h = native.repo, native.h
    empty = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(empty))
    git(repo, "remote", "add", "empty", str(empty))
    git(repo, "checkout", "-q", "-b", "topic")
    tid, bad = hand_done_no_verify(repo, h)
    # The remote sha is all zeros: the guard walks back to what any remote already has.
    p = push(repo, "empty", "topic")
    assert p.returncode != 0 and bad[:12] in out(p), out(p)
    assert remote_ref(empty, "refs/heads/topic") is None


def test_native_notes_push_is_accepted(native):
    repo, h = native.repo, native.h
    hand_done_no_verify(repo, h)
    assert push(repo).returncode != 0
    p = push(repo, "origin", NOTES)
    assert p.returncode == 0, out(p)
    assert "refused" not in out(p)
    assert "commit(s) checked, no problems" in out(p), out(p)  # notes commits carry no .harness/
    assert remote_ref(native.remote, NOTES) == head(repo, NOTES)


def test_a_ref_named_like_notes_cannot_smuggle_a_forged_done(native):
    repo, h = native.repo, native.h
    tid, bad = hand_done_no_verify(repo, h)
    git(repo, "update-ref", "refs/notes/evil", bad)
    p = push(repo, "origin", "refs/notes/evil:refs/heads/main")
    assert p.returncode != 0 and bad[:12] in out(p), out(p)


def test_an_annotated_tag_on_a_forged_done_is_refused(native):
    repo, h = native.repo, native.h
    tid, bad = hand_done_no_verify(repo, h)
    git(repo, "tag", "-a", "v1", "-m", "v1", bad)
    p = push(repo, "origin", "v1")
    assert p.returncode != 0 and bad[:12] in out(p), out(p)
    assert remote_ref(native.remote, "refs/tags/v1") is None


def test_a_new_branch_is_checked_against_its_own_remote_not_another(native, tmp_path):
    repo, h = native.repo, native.h
    tid, bad = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/smuggled")  # origin now knows it
    git(repo, "fetch", "-q", "origin")
    other = tmp_path / "other.git"
    git(tmp_path, "init", "-q", "--bare", str(other))
    git(repo, "remote", "add", "other", str(other))
    p = push(repo, "other", "HEAD:refs/heads/main")
    assert p.returncode != 0 and bad[:12] in out(p), out(p)


def test_a_symlinked_task_folder_is_refused_at_commit(native):
    repo, h = native.repo, native.h
    tid = h.ok("task", "new", "linked").out.strip()
    store = repo / ".harness/store"
    store.mkdir()
    (repo / ".harness/tasks" / tid).rename(store / tid)
    (repo / ".harness/tasks" / tid).symlink_to(f"../store/{tid}")
    assert h("status").code == 2  # the CLI refuses to read through the link, too
    git(repo, "add", "-A")
    p = git(repo, "commit", "-qm", "linked task", check=False)
    assert p.returncode != 0 and "plain-files-only" in out(p), out(p)


def test_native_amend_keeps_a_note_on_the_new_head(native):
    repo, h = native.repo, native.h
    tid = gated_done(h)
    first = commit_all_ok(repo, "done")
    second = commit_ok(repo, "done, reworded", "--amend")
    assert second != first
    stamp = note(repo, second)
    assert stamp is not None and stamp["commit"] == second and stamp["tasks"][tid]["gate"] == "PASS"


def test_native_merge_of_an_ungated_done_is_refused(native):
    repo, h = native.repo, native.h
    git(repo, "checkout", "-q", "-b", "shortcut")
    tid, bad = hand_done_no_verify(repo, h)
    git(repo, "checkout", "-q", "main")
    (repo / "other.txt").write_text("main moves on\n")
    tip = commit_all_ok(repo, "main moves on")
    p = git(repo, "merge", "--no-ff", "-m", "merge", "shortcut", check=False)
    assert p.returncode != 0, out(p)
    assert head(repo) == tip


def test_native_merge_guard_names_the_incoming_done_commit(native):
    """pre-merge-commit runs the merge guard: the incoming DONE commit (without a gate PASS at that
    commit) is named, even though the merge result is consistent."""
    repo, h = native.repo, native.h
    git(repo, "checkout", "-q", "-b", "sneaky")
    original = (repo / "app.py").read_text()
    gated_done(h)
    (repo / "app.py").write_text("def answer():\n    return 'never tested'\n")
    bad = commit_all_ok(repo, "DONE on untested code", "--no-verify")
    (repo / "app.py").write_text(original)
    commit_all_ok(repo, "put the tested code back")
    git(repo, "checkout", "-q", "main")
    tip = head(repo)
    p = git(repo, "merge", "--no-ff", "-m", "merge", "sneaky", check=False)
    assert p.returncode != 0, f"the merge was accepted:\n{out(p)}"
    assert "merge guard" in out(p) and bad[:12] in out(p)
    assert head(repo) == tip


# -- chaining an existing hook ----------------------------------------------------------

def test_install_keeps_and_chains_an_existing_hook_and_uninstall_restores_it(h, repo, tmp_path):
    marker = tmp_path / "marker"
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    original = f"#!/bin/sh\necho ran >> '{marker}'\n"
    (hooks / "pre-commit").write_text(original)
    (hooks / "pre-commit").chmod(0o755)

    text = install(h)
    assert "kept your pre-commit hook" in text
    assert (hooks / "pre-commit.pre-harness").read_text() == original
    assert "engineering-harness native hook shim" in (hooks / "pre-commit").read_text()
    install(h)  # idempotent: the shim is not chained onto itself
    assert (hooks / "pre-commit.pre-harness").read_text() == original

    commit_all_ok(repo, "harness init")
    assert marker.read_text().splitlines() == ["ran"]  # the user's hook ran...
    tid = h.ok("task", "new", "Chained").out.strip()
    commit_all_ok(repo, "task")
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    refused_commit(repo, "hand edit")  # ...and so did the harness
    assert marker.read_text().splitlines() == ["ran", "ran", "ran"]

    text = h.ok("uninstall").text
    assert "restored your pre-commit hook" in text
    assert (hooks / "pre-commit").read_text() == original
    assert not (hooks / "pre-commit.pre-harness").exists()
    for stage in STAGES:
        if stage != "pre-commit":
            assert not (hooks / stage).exists(), stage
    assert git(repo, "config", "notes.rewriteRef", check=False).returncode != 0
    # Without the harness, the hand edit commits (the user's hook still runs).
    commit_ok(repo, "hand edit, harness uninstalled")
    assert len(marker.read_text().splitlines()) == 4


def test_a_failing_chained_hook_still_blocks_the_commit(h, repo):
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "pre-commit").write_text("#!/bin/sh\necho 'user hook says no' >&2\nexit 3\n")
    (hooks / "pre-commit").chmod(0o755)
    install(h)
    git(repo, "add", "-A")
    text = refused_commit(repo, "harness init")
    assert "user hook says no" in text


def test_chained_pre_push_hook_sees_the_same_refs(native, tmp_path):
    repo, hooks = native.repo, native.hooks
    seen = tmp_path / "seen"
    (hooks / "pre-push.pre-harness").write_text(f"#!/bin/sh\ncat > '{seen}'\n")
    (hooks / "pre-push.pre-harness").chmod(0o755)
    (repo / "app.py").write_text("def answer():\n    return 7\n")
    sha = commit_all_ok(repo, "code")
    push_ok(repo)
    lines = seen.read_text().split()
    assert lines[:2] == ["refs/heads/main", sha], lines


# -- rewrites and worktrees -------------------------------------------------------------

def test_native_rebase_leaves_one_parseable_note_per_rewritten_commit(native):
    """`harness install` configures notes.rewriteRef "so amend and rebase carry the stamps"; each
    rewritten commit must end up with one note, about itself."""
    repo = native.repo
    for n in range(3):
        (repo / f"f{n}.txt").write_text(f"{n}\n")
        commit_all_ok(repo, f"c{n}")
    git(repo, "rebase", "-q", "--force-rebase", "HEAD~3")
    for rev in ("HEAD~2", "HEAD~1", "HEAD"):
        sha = head(repo, rev)
        text = git(repo, "notes", "--ref", NOTES, "show", sha, check=False).stdout
        assert text, f"{rev} has no note after the rebase"
        try:
            doc = json.loads(text)
        except ValueError:
            pytest.fail(f"the note on {rev} ({sha[:12]}) is not one JSON document after the rebase:\n{text}")
        assert doc["commit"] == sha


def test_native_hooks_guard_a_linked_worktree(native, tmp_path):
    repo, h = native.repo, native.h
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    hw = Harness(wt, h.capfd)
    tid = hw.ok("task", "new", "In a worktree").out.strip()
    walk_to(hw, "SPECIFYING")
    sha = commit_all_ok(wt, "task, from the worktree")
    assert note(wt, sha)["tasks"][tid]["state"] == "SPECIFYING"
    set_state_by_hand(wt, tid, "DONE")
    text = refused_commit(wt, "hand edit, from the worktree", "-a")
    assert f".harness/tasks/{tid}/task.yaml" in text


def test_install_refuses_when_a_hook_and_its_chained_copy_both_exist_and_renames_nothing(h, repo):
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    for name in ("pre-commit", "pre-push", "pre-push.pre-harness"):
        (hooks / name).write_text(f"#!/bin/sh\n# {name}\n")
    r = h("install")
    assert r.code == 1 and "exists and so does" in r.err and "pre-push.pre-harness" in r.err
    # Checked before anything moves: the pre-commit hook (no collision) is still the user's own.
    assert (hooks / "pre-commit").read_text() == "#!/bin/sh\n# pre-commit\n"
    assert not (hooks / "pre-commit.pre-harness").exists()
    assert (hooks / "pre-push").read_text() == "#!/bin/sh\n# pre-push\n"


def test_a_replace_ref_does_not_hide_a_hand_edit_from_the_native_pre_commit(native):
    # The shim's code-only check asks git whether .harness/ is staged; a replace ref from HEAD's .harness
    # tree to the staged one made git answer "no" and skip the checks (#28's task F-0029).
    repo, h = native.repo, native.h
    tid = h.ok("task", "new", "Replaced").out.strip()
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    head_harness = git(repo, "rev-parse", "HEAD:.harness").stdout.strip()
    staged_harness = git(repo, "write-tree", "--prefix=.harness/").stdout.strip()
    git(repo, "replace", head_harness, staged_harness)
    text = refused_commit(repo, "claim DONE", "--allow-empty")
    assert f".harness/tasks/{tid}/task.yaml" in text


def test_literal_pathspecs_do_not_make_a_hand_edit_look_code_only(native, monkeypatch):
    # `git --literal-pathspecs commit` (GIT_LITERAL_PATHSPECS=1) made the check's `:(top).harness` a literal
    # name that matches nothing: the shim and the launcher took the commit for code only (#28's task F-0035).
    from harness.gitio import fast_path

    repo, h = native.repo, native.h
    tid = h.ok("task", "new", "Literal").out.strip()
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "task")
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", "-A")
    monkeypatch.chdir(repo)
    assert not fast_path.staged_nothing_to_judge({**os.environ, "GIT_LITERAL_PATHSPECS": "1"})
    p = git(repo, "--literal-pathspecs", "commit", "-q", "-m", "claim DONE", check=False)
    assert p.returncode != 0 and f".harness/tasks/{tid}/task.yaml" in out(p), out(p)
