"""The commit and push fast paths give the full paths' answers, and both judge objects as stored (a tenth
adversarial read, #28's task F-0053..F-0056): a HEAD whose .harness is no folder, a tree met first as a root
and then as .harness, a folder written with a zero-padded mode, a graft file."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.cli import launch
from harness.gitio.fast_path import staged_nothing_to_judge
from harness.gitio.push_fast_path import code_only_push
from harness.install.hook_files import native_hook

from support.cli import cli
from support.gitrepo import commit_all_ok, git, head

URL = "/nowhere/remote.git"


def _mktree(repo, listing: str) -> str:
    return subprocess.run(["git", "mktree"], cwd=repo, input=listing, capture_output=True, text=True,
                          check=True).stdout.strip()


def _blob(repo, text: str) -> str:
    return subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text, capture_output=True,
                          text=True, check=True).stdout.strip()


def _root_without_harness(repo, rev: str) -> str:
    return "".join(line + "\n" for line in git(repo, "ls-tree", rev).stdout.splitlines() if not line.endswith("\t.harness"))


def _pushes(repo, monkeypatch, tip: str, old: str) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """(the entry point's answer, the full push guard's answer) to pushing ``tip`` over ``old``."""
    stdin = f"refs/heads/main {tip} refs/heads/main {old}\n"
    monkeypatch.chdir(repo)
    fast = cli(repo, "hook", "push-guard", "origin", URL, stdin=stdin)
    with monkeypatch.context() as m:
        m.setattr(launch, "push_answer", lambda _args: None)
        full = cli(repo, "hook", "push-guard", "origin", URL, stdin=stdin)
    return fast, full


@pytest.fixture
def committed(h, task):
    commit_all_ok(h.root, "task")
    return h.root


# -- F-0053: a code-only commit over a HEAD whose .harness is no folder ----------------------------------

@pytest.mark.parametrize("mode", ["120000", "100644"])
def test_a_code_only_commit_over_a_harness_that_is_no_folder_gets_the_full_checks(committed, monkeypatch, tmp_path, mode):
    repo = committed
    entry = f"{mode} blob {_blob(repo, 'elsewhere')}\t.harness\n"
    forged = git(repo, "commit-tree", _mktree(repo, _root_without_harness(repo, "HEAD") + entry), "-p", "HEAD",
                 "-m", "no folder").stdout.strip()
    git(repo, "update-ref", "HEAD", forged)
    git(repo, "read-tree", "HEAD")  # the index as HEAD: nothing of .harness is staged
    (repo / "z.txt").write_text("z\n")
    git(repo, "add", "z.txt")
    monkeypatch.chdir(repo)
    assert staged_nothing_to_judge() is False
    shim = tmp_path / "hooks" / "pre-commit"
    shim.parent.mkdir()
    shim.write_text(native_hook().replace("@PYTHON@", sys.executable))
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k.endswith(("_NAME", "_EMAIL"))}
    ran = subprocess.run([str(shim)], cwd=repo, capture_output=True, text=True, env=env)
    assert ran.returncode != 0 and "not a folder" in ran.stdout + ran.stderr, ran.stdout + ran.stderr


def test_a_code_only_commit_over_a_folder_still_takes_the_fast_path(committed, monkeypatch):
    (committed / "z.txt").write_text("z\n")
    git(committed, "add", "z.txt")
    monkeypatch.chdir(committed)
    assert staged_nothing_to_judge() is True


# -- F-0054: a tree sound as a root is not thereby sound as .harness ------------------------------------------

def test_a_tree_met_as_a_root_is_checked_whole_when_it_is_met_again_as_harness(committed, monkeypatch):
    repo, parent = committed, head(committed)
    blob = _blob(repo, "x\n")
    doubled = _mktree(repo, f"100644 blob {blob}\tx\n100644 blob {blob}\tx\n")
    # X: code only (HEAD's files, .harness unchanged) plus the files of HEAD's .harness at the top and a folder
    # `junk` naming x twice, which only fsck refuses at the top. Y: X's root tree as its .harness.
    harness_listing = "".join(line + "\n" for line in git(repo, "ls-tree", "HEAD:.harness").stdout.splitlines()
                              if not line.endswith("\t.gitignore"))
    root_x = _mktree(repo, git(repo, "ls-tree", "HEAD").stdout + harness_listing + f"040000 tree {doubled}\tjunk\n")
    x = git(repo, "commit-tree", root_x, "-p", parent, "-m", "x").stdout.strip()
    root_y = _mktree(repo, _root_without_harness(repo, "HEAD") + f"040000 tree {root_x}\t.harness\n")
    y = git(repo, "commit-tree", root_y, "-p", x, "-m", "y").stdout.strip()
    alone = git(repo, "commit-tree", root_y, "-p", parent, "-m", "y alone").stdout.strip()
    assert "duplicateEntries" in cli(repo, "audit", "--from", parent, "--to", alone).stderr  # refused on its own
    audit = cli(repo, "audit", "--from", parent, "--to", y)
    assert audit.returncode == 1 and "duplicateEntries" in audit.stdout + audit.stderr, audit.stdout + audit.stderr
    fast, full = _pushes(repo, monkeypatch, y, parent)
    assert (fast.returncode, full.returncode) == (1, 1), fast.stderr + full.stderr
    assert "duplicateEntries" in fast.stderr


# -- F-0055: a folder whose mode is written 040000 ----------------------------------------------------------

def test_a_zero_padded_folder_mode_gets_the_full_guards_answer(committed, monkeypatch):
    repo, parent = committed, head(committed)
    blob = bytes.fromhex(_blob(repo, "x\n"))
    sub = bytes.fromhex(_mktree(repo, f"100644 blob {blob.hex()}\tf\n"))
    raw = subprocess.run(["git", "cat-file", "tree", "HEAD^{tree}"], cwd=repo, capture_output=True, check=True).stdout
    body = raw + b"040000 z\0" + sub + b"100644 z-b\0" + blob  # z/ sorts after z-b: git's fsck says treeNotSorted
    tree = subprocess.run(["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"], cwd=repo, input=body,
                          capture_output=True, check=True).stdout.decode().strip()
    tip = git(repo, "commit-tree", tree, "-p", parent, "-m", "code only").stdout.strip()
    monkeypatch.chdir(repo)
    assert code_only_push([f"refs/heads/main {tip} refs/heads/main {parent}\n".encode()], "origin") is None
    fast, full = _pushes(repo, monkeypatch, tip, parent)
    assert (fast.returncode, fast.stderr.strip()) == (full.returncode, full.stderr.strip())
    assert fast.returncode == 1 and "fsck-clean-tree" in fast.stderr


# -- F-0056: a graft file ---------------------------------------------------------------------------------------

def test_a_graft_file_is_refused_by_the_push_guard_and_the_audit(committed, monkeypatch):
    repo = committed
    old = head(repo)
    (repo / "b.txt").write_text("b\n")
    parent = commit_all_ok(repo, "code")
    (repo / "c.txt").write_text("c\n")
    tip = commit_all_ok(repo, "more code")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "grafts").write_text(f"{tip} {old}\n")  # skips `parent` in every walk
    fast, full = _pushes(repo, monkeypatch, tip, old)
    for answer in (fast, full):
        assert answer.returncode != 0 and "info/grafts" in answer.stderr, answer.stderr
    audit = cli(repo, "audit", "--from", old, "--to", tip)
    assert audit.returncode != 0 and "info/grafts" in audit.stdout + audit.stderr
    assert "git replace --convert-graft-file" in fast.stderr
    (repo / ".git" / "info" / "grafts").write_text("")  # an empty graft file grafts nothing
    fast, full = _pushes(repo, monkeypatch, tip, old)
    assert (fast.returncode, full.returncode) == (0, 0), fast.stderr + full.stderr
    assert parent
