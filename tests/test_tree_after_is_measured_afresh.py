"""The source tree after a recorded command is measured afresh (harness.gitio.worktree.Worktree.worktree_source_tree):
nothing of the measurement before it stays in .git/ through the run (F-0056, which reused a kept copy of its
index), so what the command does in git (an ignore rule, the real index, flags, files in .git/) is read as a
fresh measurement reads it, and the record holds the true tree."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from harness.gitio.process_git import ProcessGit

from support.gitrepo import commit_all_ok, git


def _gits(g: ProcessGit, monkeypatch) -> list[str]:
    """The git subcommands ``g`` runs from now on."""
    ran: list[str] = []
    for name in ("run", "run_bytes", "started"):
        real = getattr(g, name)
        monkeypatch.setattr(g, name, lambda args, *a, real=real, **k: (ran.append(args[0]), real(args, *a, **k))[1])
    return ran


def _project(repo: Path) -> Path:
    (repo / "code.txt").write_text("before\n")
    (repo / ".gitignore").write_text("*.log\n")
    (repo / "tracked.log").write_text("tracked though ignored\n")
    git(repo, "add", "-f", "code.txt", ".gitignore", "tracked.log")
    commit_all_ok(repo, "project")
    return repo


def test_the_second_measurement_is_fresh_and_nothing_is_kept_between_them(repo, monkeypatch):
    g = ProcessGit(_project(repo))
    measure = g.worktree_source_tree
    before = measure()
    assert not [p for p in os.listdir(g.git_dir) if p.startswith("harness-index.")]
    (repo / "code.txt").write_text("after\n")
    (repo / "new.txt").write_text("untracked\n")
    (repo / "tracked.log").unlink()
    ran = _gits(g, monkeypatch)
    after = measure()
    monkeypatch.undo()
    assert "ls-files" in ran  # a fresh measurement lists the hiding flags again
    assert after != before and after == ProcessGit(repo).worktree_source_tree()
    assert not [p for p in os.listdir(g.git_dir) if p.startswith("harness-index.")]


def test_an_ignore_rule_the_command_adds_is_read_as_a_fresh_measurement_reads_it(repo):
    g = ProcessGit(_project(repo))
    (repo / "build").mkdir()
    (repo / "build" / "out.txt").write_text("untracked, not ignored before the run\n")
    measure = g.worktree_source_tree
    before = measure()
    with (repo / ".gitignore").open("a") as f:
        f.write("build/\n")
    after = measure()
    assert after == ProcessGit(repo).worktree_source_tree() != before


def test_a_real_index_the_command_changed_makes_the_measurement_fresh(repo, monkeypatch):
    g = ProcessGit(_project(repo))
    (repo / "forced.log").write_text("ignored, then tracked by the run\n")
    measure = g.worktree_source_tree
    measure()
    git(repo, "add", "-f", "forced.log")
    ran = _gits(g, monkeypatch)
    after = measure()
    monkeypatch.undo()
    assert "ls-files" in ran
    assert after == ProcessGit(repo).worktree_source_tree()


def test_a_skip_worktree_entry_makes_the_measurement_fresh(repo, monkeypatch):
    g = ProcessGit(_project(repo))
    git(repo, "update-index", "--skip-worktree", "code.txt")
    measure = g.worktree_source_tree
    measure()
    ran = _gits(g, monkeypatch)
    measure()
    monkeypatch.undo()
    assert "ls-files" in ran


TAMPER = """
import os, subprocess, sys
open("code.txt", "w").write("changed by the run\\n")
for name in os.listdir(".git"):
    if name.startswith("harness-index."):
        path = os.path.join(".git", name)
        st = os.stat(path)
        subprocess.run(["git", "update-index", "--assume-unchanged", "code.txt"], check=True,
                       env={**os.environ, "GIT_INDEX_FILE": path})
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
"""


def test_a_recording_whose_command_tampers_with_the_kept_index_records_the_true_tree(h, task):
    repo = _project(h.root)
    h.ok("evidence", "custom", "--", sys.executable, "-c", TAMPER)
    record = json.loads((repo / ".harness" / "tasks" / task / "evidence" / "custom.json").read_text())
    assert record["tree_after"] == ProcessGit(repo).worktree_source_tree()
    assert record["tree_after"] != record["tree"]


def test_differs_from_commit_started_beside_the_measurement_answers_as_differs_from_commit(repo):
    g = ProcessGit(_project(repo))
    head = g.head()
    for tree in (g.source_tree("HEAD"), g.empty_tree()):
        with g.differs_from_commit_started(head) as differs:
            assert differs(tree) == g.differs_from_commit(tree, head)
    with g.differs_from_commit_started(None) as differs:
        assert differs(g.empty_tree()) is False
    with g.differs_from_commit_started(head):
        pass  # never asked: its git process is ended, not left behind


def test_hidden_entries_are_read_from_the_disk_while_harness_is_taken_out(repo, tmp_path):
    """The listing of hiding flags runs beside `git rm --cached .harness`: a hidden source file is still read
    from the disk, and a hidden .harness entry (taken out) stops nothing."""
    _project(repo)
    (repo / ".harness").mkdir()
    (repo / ".harness" / "kept.yaml").write_text("a: 1\n")
    git(repo, "add", "-A")
    commit_all_ok(repo, "with .harness")
    git(repo, "update-index", "--assume-unchanged", "code.txt", ".harness/kept.yaml")
    (repo / "code.txt").write_text("edited while hidden\n")
    plain = {**os.environ, "GIT_INDEX_FILE": str(tmp_path / "index")}
    git(repo, "read-tree", "HEAD", env=plain)
    git(repo, "rm", "--cached", "-r", "-q", "--", ".harness", env=plain)
    git(repo, "add", "-A", "--", ".", ":(exclude).harness", env=plain)
    expected = git(repo, "write-tree", env=plain).stdout.strip()
    measure = ProcessGit(repo).worktree_source_tree
    assert measure() == expected == measure()
