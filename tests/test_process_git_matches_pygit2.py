"""Recording evidence reads git through processes (harness.gitio.process_git), not pygit2: every
answer it uses must be the pygit2-backed Git's, in every shape of repository a recording meets, but
for the two deliberate differences tested at the end."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.process_git import EMPTY_TREE, ProcessGit
from harness.gitio.worktree import ensure_recordable

from support.gitrepo import commit_all_ok, git, head, new_repo

IGNORE_PROBES = ["build/out.o", "notes.log", "keep.log", "src/app.py", ".harness/tasks/x", "deep/a/b.tmp", "build"]


def answers(g) -> dict:
    head = g.head()
    tree = g.worktree_source_tree()
    return {
        "head": head, "head again": g.head(), "tree": tree, "empty": g.empty_tree(),
        "dirty": g.differs_from_commit(tree, head),
        "head tree": g.source_tree(head) if head else None,
        "head tree by name": g.source_tree("HEAD") if head else None,
        "git dir": g.git_dir, "common dir": g.common_dir, "bare": g.is_bare,
        "foreign": g.foreign_location(), "ignored": {p: g.is_ignored(p) for p in IGNORE_PROBES},
        # A key of the repository's own config: libgit2 reads no GIT_CONFIG_GLOBAL, so a global key may differ.
        "config": (g.config_get("harness.probe"), g.config_get("no.such-key")),
    }


def same_answers(root: Path) -> dict:
    git(root, "config", "harness.probe", "local value")
    by_pygit2, by_processes = answers(Git(root)), answers(ProcessGit(root))
    assert by_processes == by_pygit2
    return by_processes


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, "utf-8")


@pytest.fixture
def project(tmp_path) -> Path:
    """A repository with code, a committed .harness/, ignore rules (one negated) and a commit."""
    root = new_repo(tmp_path / "project")
    write(root, "src/app.py", "print(1)\n")
    write(root, ".harness/config.yaml", "version: 1\n")
    write(root, ".gitignore", "build/\n*.log\n!keep.log\n*.tmp\n")
    commit_all_ok(root, "code and harness")
    return root


def test_unborn_repository(tmp_path):
    root = tmp_path / "unborn"
    git(tmp_path, "init", "-q", str(root))
    write(root, "a.txt", "a\n")
    found = same_answers(root)
    assert found["head"] is None and found["tree"] != EMPTY_TREE


def test_clean_checkout_with_committed_harness(project):
    found = same_answers(project)
    assert found["tree"] == found["head tree"] and not found["dirty"]  # .harness/ is not source


def test_untracked_staged_and_edited_files(project):
    write(project, "src/new.py", "x = 1\n")            # untracked
    write(project, "src/app.py", "print(2)\n")         # edited, unstaged
    write(project, "lib.py", "y = 2\n")
    git(project, "add", "lib.py")                      # staged
    write(project, "lib.py", "y = 3\n")                # and edited again
    write(project, "build/out.o", "binary\n")          # ignored
    write(project, ".harness/tasks/T/state.yaml", "s: 1\n")  # the harness's own, never source
    found = same_answers(project)
    assert found["tree"] != found["head tree"] and found["dirty"]


def test_only_harness_changed_is_not_dirty(project):
    write(project, ".harness/config.yaml", "version: 2\n")
    found = same_answers(project)
    assert found["tree"] == found["head tree"]


def test_hidden_index_flags_do_not_hide_an_edit(project):
    git(project, "update-index", "--assume-unchanged", "src/app.py")
    write(project, "src/app.py", "print('edited under assume-unchanged')\n")
    found = same_answers(project)
    assert found["tree"] != found["head tree"]


def test_deleted_file_and_empty_source(project):
    for rel in ("src/app.py", ".gitignore", "app.py"):
        (project / rel).unlink()
    found = same_answers(project)
    assert found["tree"] == EMPTY_TREE  # only .harness/ is left: the empty source tree


def test_detached_head_and_a_submodule_entry(project, tmp_path):
    inner = new_repo(tmp_path / "inner")
    write(inner, "f.txt", "f\n")
    commit_all_ok(inner, "inner")
    git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "vendor/inner")
    commit_all_ok(project, "add a submodule")
    git(project, "checkout", "-q", "--detach", "HEAD")
    same_answers(project)


def test_linked_worktree(project, tmp_path):
    linked = tmp_path / "linked"
    git(project, "worktree", "add", "-q", "--detach", str(linked))
    write(linked, "src/other.py", "z = 0\n")
    found = same_answers(linked)
    assert found["git dir"] != found["common dir"]


def test_a_foreign_location_is_named_alike(project, monkeypatch):
    monkeypatch.setenv("GIT_INDEX_FILE", str(project / "elsewhere.index"))
    found = same_answers(project)
    assert found["foreign"] and "GIT_INDEX_FILE" in found["foreign"]
    with pytest.raises(HarnessError, match="not recording"):
        ensure_recordable(ProcessGit(project))


def test_caller_git_variables_do_not_move_what_is_measured(project, tmp_path, monkeypatch):
    other = new_repo(tmp_path / "other")
    write(other, "o.txt", "o\n")
    commit_all_ok(other, "other")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    assert ProcessGit(project).worktree_source_tree() == Git(project).worktree_source_tree()
    assert ProcessGit(project).head() == Git(project).head() != Git(other).head()


def test_not_a_repository_is_refused_in_the_same_words(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(HarnessError) as by_pygit2:
        Git(plain)
    with pytest.raises(HarnessError) as by_processes:
        ProcessGit(plain)
    assert by_processes.value.message == by_pygit2.value.message


def test_a_sha256_repository_is_refused_as_pygit2_refuses_it(tmp_path):
    root = tmp_path / "sha256"
    if git(tmp_path, "init", "-q", "--object-format=sha256", str(root), check=False).returncode != 0:
        pytest.skip("this git cannot make sha256 repositories")
    with pytest.raises(HarnessError, match="sha256") as by_processes:
        ProcessGit(root)
    with pytest.raises(HarnessError) as by_pygit2:
        Git(root)
    assert by_processes.value.message == by_pygit2.value.message


def test_head_is_read_again_after_the_first_answer(project):
    """The first answer is the one read on opening (a recording asks before its command runs); a
    commit made after it is seen by the next."""
    g = ProcessGit(project)
    before = g.head()
    write(project, "later.py", "v = 1\n")
    commit_all_ok(project, "a later commit")
    assert before == head(project, "HEAD~1")
    assert g.head() == head(project) == Git(project).head()


def test_methods_it_does_not_answer_still_work(project):
    """Anything a recording does not ask is inherited and answered through pygit2, opened on first use."""
    g = ProcessGit(project)
    assert g.changed_paths(g.source_tree("HEAD"), g.worktree_source_tree()) == ([], 0)
    assert g.commit_tree("HEAD") == Git(project).commit_tree("HEAD")


def test_ignore_rules_from_info_exclude_and_core_excludes_file(project, tmp_path):
    write(project, ".git/info/exclude", "secret.txt\n")
    excludes = tmp_path / "global-ignore"
    excludes.write_text("*.bak\n", "utf-8")
    git(project, "config", "core.excludesFile", str(excludes))
    for probe in ("secret.txt", "x.bak", "x.py"):
        assert ProcessGit(project).is_ignored(probe) == Git(project).is_ignored(probe)
    assert ProcessGit(project).is_ignored("x.bak") and not ProcessGit(project).is_ignored("x.py")


def test_recording_evidence_does_not_load_pygit2(h, task):
    """The point of it all: `harness evidence` records without importing pygit2."""
    import subprocess
    import sys

    probe = ("import sys, runpy; sys.argv = ['harness', 'evidence', 'custom', '--', 'true']\n"
             "try:\n    runpy.run_module('harness', run_name='__main__')\nexcept SystemExit as e:\n    code = e.code\n"
             "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'pygit2' and "
             "type(sys.modules[m]).__name__ != '_LazyModule')\n"
             "print('PYGIT2', loaded, code, file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=h.root, capture_output=True, text=True, env=env)
    assert "PYGIT2 [] 0" in proc.stderr, proc.stderr[-2000:]


# -- what an adversarial read found (#28's F-0016..F-0019) ---------------------------------------

def test_root_names_that_are_not_utf8_are_read_as_git_wrote_them(project):
    """F-0016: an untracked root entry, one only in HEAD and a tracked one, named in bytes that are not UTF-8."""
    raw = os.fsencode(project) + b"/"
    with open(raw + b"tracked\xfe.txt", "wb") as fh:
        fh.write(b"t\n")
    git(project, "add", "-A")
    with open(raw + b"gone\xfd.txt", "wb") as fh:
        fh.write(b"g\n")
    commit_all_ok(project, "names in latin-1")
    git(project, "rm", "-q", "--cached", os.fsdecode(b"gone\xfd.txt"))
    os.unlink(raw + b"gone\xfd.txt")
    with open(raw + b"b\xff.txt", "wb") as fh:
        fh.write(b"y\n")
    found = same_answers(project)
    assert found["dirty"]


def test_a_head_tree_with_a_mode_old_git_wrote_is_compared_as_stored(project):
    """F-0017: HEAD's root tree holds `100664 a.txt`: its source tree is not the working tree's
    (whose mode git writes as 100644), with or without a .harness entry beside it."""
    blob = git(project, "hash-object", "-w", "app.py").stdout.strip()
    harness = git(project, "rev-parse", "HEAD:.harness").stdout.strip()
    for listing in (f"100664 blob {blob}\tapp.py\n", f"100664 blob {blob}\tapp.py\n040000 tree {harness}\t.harness\n"):
        tree = subprocess.run(["git", "mktree"], cwd=project, input=listing, capture_output=True, text=True,
                              check=True).stdout.strip()
        commit = git(project, "commit-tree", tree, "-m", "old mode").stdout.strip()
        git(project, "update-ref", "HEAD", commit)
        git(project, "reset", "-q")
        for rel in ("src/app.py", ".gitignore"):
            (project / rel).unlink(missing_ok=True)
        found = same_answers(project)
        assert found["dirty"], listing


def test_a_head_naming_a_missing_commit_is_refused_naming_head(project):
    """F-0018: HEAD's commit object is gone: not an unborn branch, and not a guess."""
    commit = head(project)
    (project / ".git/objects" / commit[:2] / commit[2:]).unlink()
    with pytest.raises(HarnessError, match="HEAD"):
        ProcessGit(project).head()
    unborn = project.parent / "fresh"
    git(project.parent, "init", "-q", str(unborn))
    assert ProcessGit(unborn).head() is None  # an unborn branch is still no commit, and no refusal


# -- the two deliberate differences (see harness/gitio/process_git.py) ---------------------------

def test_ignore_rules_are_the_ones_git_add_goes_by(project):
    """Where libgit2 reads a pattern otherwise, the answer is git's: a file is ignored exactly when
    `git add -A` leaves it out of the tree a recording measures."""
    write(project, ".gitignore", "a/\n**/\n**/b\n!a/\n")
    for rel in ("[ab]/a/t.o", "x/b", "a/y.txt", "plain.txt"):
        write(project, rel, "v\n")
    git(project, "add", "-A")
    added = set(git(project, "ls-files", "-z").stdout.split("\0"))
    g = ProcessGit(project)
    for rel in ("[ab]/a/t.o", "x/b", "a/y.txt", "plain.txt"):
        assert g.is_ignored(rel) == (rel not in added), rel


def test_a_head_file_holding_a_tags_id_names_the_commit_the_tag_names(project):
    """git reads a tag's id in HEAD as the commit it names; pygit2 answered the tag's id, which is no commit."""
    git(project, "tag", "-a", "-m", "t", "v1")
    commit, tag = head(project), git(project, "rev-parse", "v1").stdout.strip()
    (project / ".git/HEAD").write_text(tag + "\n", "utf-8")
    assert ProcessGit(project).head() == commit != tag


def test_harness_staged_apart_from_head_and_disk_a_nested_harness_and_a_sparse_cone(project):
    # ProcessGit takes .harness out of its throw-away index (`git rm --cached -f`), where Git strips
    # the written tree: a staged .harness differing from HEAD and from the disk is still taken out,
    # `src/.harness` is source like any folder, and a sparse cone leaving .harness out changes nothing.
    write(project, ".harness/config.yaml", "version: 2\n")
    git(project, "add", ".harness/config.yaml")
    write(project, ".harness/config.yaml", "version: 3\n")
    write(project, "src/.harness/kept.txt", "source\n")
    found = same_answers(project)
    assert found["tree"] != found["head tree"]  # src/.harness/kept.txt
    git(project, "sparse-checkout", "set", "src")
    assert same_answers(project)["tree"] == found["tree"]


def test_a_harness_that_is_a_file_is_taken_out_alike(tmp_path):
    root = new_repo(tmp_path / "file")
    write(root, ".harness", "not a folder\n")
    commit_all_ok(root, "a .harness file")
    found = same_answers(root)
    assert found["tree"] == found["head tree"] and not found["dirty"]
    write(root, ".harness", "edited\n")
    assert same_answers(root)["tree"] == found["tree"]


def test_a_merge_that_left_harness_files_unmerged_is_measured_alike(project):
    # Conflicting ledgers are the store's to refuse, not the tree's: .harness is no source, so its
    # unmerged entries are taken out of the throw-away index with it and the source is measured.
    default = git(project, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    git(project, "checkout", "-q", "-b", "other")
    write(project, ".harness/config.yaml", "version: 2\n")
    commit_all_ok(project, "theirs")
    git(project, "checkout", "-q", default)
    write(project, ".harness/config.yaml", "version: 3\n")
    commit_all_ok(project, "ours")
    subprocess.run(["git", "merge", "-q", "other"], cwd=project, capture_output=True)
    assert git(project, "ls-files", "-u").stdout.strip(), "the merge should have left .harness/config.yaml unmerged"
    found = same_answers(project)
    assert found["tree"] == found["head tree"] and not found["dirty"]


def test_a_harness_index_entry_naming_a_missing_object_is_measured_alike(project):
    # Taken out of the index with the rest of .harness before the tree is written: no source, no refusal.
    git(project, "update-index", "--add", "--cacheinfo", "100644,1234567890123456789012345678901234567890,.harness/x")
    found = same_answers(project)
    assert found["tree"] == found["head tree"]
