"""Where git's configuration really is, the guard looks: a linked worktree's common config (#25's task F-0024),
a config file another includes (F-0025), the file a symlinked ~/.gitconfig points at (F-0026), a worktree's own
git folder (F-0029) — and a `.git` that is a FIFO never hangs it (F-0027)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from support.agent_guard import guard_answer
from support.gitrepo import commit_all_ok, git

LINE = "[core]\n\thooksPath = /dev/null\n"


def test_a_linked_worktree_s_hooks_folder_is_guarded(h, task, repo, tmp_path):
    """F-0024: core.hooksPath set in the common config, the session in a linked worktree."""
    git(repo, "config", "core.hooksPath", ".husky")
    commit_all_ok(repo, "the harness, committed: a worktree of it has it too")
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "--detach", str(wt))
    (wt / ".husky").mkdir()
    assert guard_answer(wt, "Bash", {"command": "rm -rf .husky"}) == "deny"
    assert guard_answer(wt, "Write", {"file_path": ".husky/pre-commit", "content": "exit 0\n"}) == "deny"
    assert guard_answer(wt, "Write", {"file_path": "src/app.py", "content": "x = 1\n"}) == "allow"


def test_a_config_file_another_includes_is_guarded(h, task, repo):
    """F-0025: ~/.gitconfig includes ~/.gitconfig.local; .git/config includes a file of the repository."""
    home = Path(os.environ["HOME"])
    with open(home / ".gitconfig", "a") as f:
        f.write("[include]\n\tpath = ~/.gitconfig.local\n")
    git(repo, "config", "include.path", "../shared.gitconfig")
    assert guard_answer(repo, "Write", {"file_path": str(home / ".gitconfig.local"), "content": LINE}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"printf x >> {home / '.gitconfig.local'}"}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": "shared.gitconfig", "content": LINE}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": str(home / "notes.txt"), "content": "x"}) == "allow"


def test_the_file_a_symlinked_gitconfig_points_at_is_guarded(h, task, repo):
    """F-0026: ~/.gitconfig -> ~/dotfiles/gitconfig, as stow or chezmoi link it."""
    home = Path(os.environ["HOME"])
    (home / "dotfiles").mkdir()
    os.replace(home / ".gitconfig", home / "dotfiles" / "gitconfig")
    (home / ".gitconfig").symlink_to(home / "dotfiles" / "gitconfig")
    assert guard_answer(repo, "Write", {"file_path": str(home / "dotfiles" / "gitconfig"), "content": LINE}) == "deny"


def test_a_worktree_s_own_git_folder_is_guarded(h, task, repo, tmp_path):
    """F-0029: .git/worktrees/<name>/commondir decides which hooks the worktree runs."""
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "wt"))
    [name] = os.listdir(repo / ".git" / "worktrees")
    for rel in ("commondir", "gitdir", "config.worktree"):
        path = f".git/worktrees/{name}/{rel}"
        assert guard_answer(repo, "Write", {"file_path": path, "content": "/elsewhere\n"}) == "deny", rel


def test_a_git_fifo_never_hangs_the_guard(h, task, repo, tmp_path):
    """F-0027: a `.git` that is a FIFO beside a `.harness/` folder is no repository, and is never opened."""
    trap = tmp_path / "trap"
    (trap / ".harness").mkdir(parents=True)
    os.mkfifo(trap / ".git")
    try:
        answer = guard_answer(trap, "Write", {"file_path": "notes.md", "content": "x"})
        assert answer == "allow"
        assert guard_answer(repo, "Write", {"file_path": str(trap / "notes.md"), "content": "x"}) == "allow"
    except subprocess.TimeoutExpired:  # guard_answer's own bound: the guard hung on the FIFO
        raise AssertionError("the guard hung on a .git FIFO") from None
