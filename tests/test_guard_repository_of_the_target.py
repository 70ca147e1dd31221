"""The guard protects the harness's repository wherever the agent's session runs: from a folder holding a `.git`
entry that is no repository, from a repository nested inside, or from outside with an absolute path
(#25's task F-0020)."""

from __future__ import annotations

import os

from support.agent_guard import guard_answer
from support.gitrepo import git


def test_a_folder_with_a_fake_git_entry_does_not_hide_the_repository_around_it(h, task, repo):
    (repo / "sub").mkdir()
    (repo / "sub" / ".git").write_text("")  # an empty file: no repository
    assert guard_answer(repo / "sub", "Write", {"file_path": "../.harness/approvals.jsonl", "content": "x"}) == "deny"
    assert guard_answer(repo / "sub", "Bash", {"command": "rm -rf ../.harness"}) == "deny"
    assert guard_answer(repo / "sub", "Write", {"file_path": "notes.md", "content": "x"}) == "allow"


def test_a_repository_nested_inside_does_not_hide_the_one_around_it(h, task, repo):
    git(repo, "init", "-q", "vendor/lib")
    assert guard_answer(repo / "vendor" / "lib", "Write", {"file_path": "../../.harness/approvals.jsonl", "content": "x"}) == "deny"
    assert guard_answer(repo / "vendor" / "lib", "Write", {"file_path": "src.py", "content": "x"}) == "allow"


def test_an_absolute_path_into_the_record_from_outside_is_refused(h, task, repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert guard_answer(outside, "Write", {"file_path": str(repo / ".harness" / "approvals.jsonl"), "content": "x"}) == "deny"
    assert guard_answer(outside, "Write", {"file_path": str(outside / "notes.md"), "content": "x"}) == "allow"


def test_git_in_a_nested_repository_without_a_harness_acts_on_that_repository(h, task, repo):
    """#25's task F-0028: its commits and hooks are its own; the record around it is still guarded."""
    git(repo, "init", "-q", "vendor/lib")
    lib = repo / "vendor" / "lib"
    for command in ("git commit --no-verify -m vendored", "git config core.hooksPath .githooks", "git commit -n -m x"):
        assert guard_answer(lib, "Bash", {"command": command}) == "allow", command
    for command in ("git -C ../.. commit --no-verify -m x", "cd ../.. && git commit --no-verify -m x",
                    "git --git-dir=../../.git commit --no-verify -m x", "GIT_DIR=../../.git git commit -n -m x",
                    "git checkout-index -a --prefix=../../.harness/", "rm -rf ../../.harness"):
        assert guard_answer(lib, "Bash", {"command": command}) == "deny", command
    assert guard_answer(repo, "Bash", {"command": "git commit --no-verify -m x"}) == "deny"


def _nested(repo):
    git(repo, "init", "-q", "vendor/lib")
    return repo / "vendor" / "lib"


def _denied_in(folder, *commands):
    return [c for c in commands if guard_answer(folder, "Bash", {"command": c}) != "deny"]


def test_a_git_alias_in_a_nested_repository_is_judged(h, task, repo):
    """#28's task F-0113."""
    lib = _nested(repo)
    assert _denied_in(lib, "git -c alias.x='!sed -i 1d ../../.harness/tasks/*/events.jsonl' x",
                      "git config alias.y '!sed -i 1d ../../.harness/tasks/*/events.jsonl'; git y") == []


def test_git_config_in_a_nested_repository_writes_only_its_own_config(h, task, repo):
    """#28's task F-0114."""
    lib = _nested(repo)
    assert _denied_in(lib, "git config --global core.hooksPath /dev/null",
                      "git config --file ../../.git/config core.hooksPath /dev/null",
                      "git config -f ../../.git/config core.hooksPath /dev/null") == []


def test_a_nested_repository_pointed_at_the_outer_work_tree_is_judged(h, task, repo):
    """#28's task F-0115."""
    lib = _nested(repo)
    assert _denied_in(lib, "git --work-tree=../.. checkout HEAD -- :/.harness",
                      "GIT_WORK_TREE=../.. git reset --hard", "git --work-tree ../.. checkout -f HEAD -- :/") == []


def test_a_line_that_moves_the_nested_git_away_is_judged_as_the_outer_repository(h, task, repo):
    """#28's task F-0116."""
    lib = _nested(repo)
    assert _denied_in(lib, "mv .git .g && git config core.hooksPath /dev/null",
                      "mv .git .g && git commit --no-verify -m x", "rm -rf .git; git commit -n -m x") == []


def test_a_git_file_pointing_at_the_outer_repository_is_no_nested_repository(h, task, repo):
    """#28's task F-0117."""
    lib = repo / "vendor" / "lib"
    lib.mkdir(parents=True)
    (lib / ".git").write_text("gitdir: ../../.git\n")
    assert _denied_in(lib, "git config core.hooksPath /dev/null", "git commit --no-verify -m x") == []
    link = repo / "vendor" / "link"
    link.mkdir()
    (link / ".git").symlink_to(repo / ".git")
    assert _denied_in(link, "git config core.hooksPath /dev/null", "git commit --no-verify -m x") == []


def test_git_clean_that_may_reach_the_record_is_refused(h, task, repo):
    """#28's task F-0118: a task made since the last commit is untracked."""
    assert _denied_in(repo, "git clean -fd", "git clean -fdx .harness", "git clean -f -d -- .", "git clean -ffdx") == []
    (repo / "build").mkdir()
    for command in ("git clean -fd build", "git clean -n", "git clean -fd -e .harness", "git clean -fX",
                    "git clean --dry-run -d"):
        assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


def test_an_alias_of_a_nested_repository_s_own_config_is_refused_unread(h, task, repo):
    """The guard reads this repository's aliases, not a nested one's (F-0113 by its second route)."""
    lib = _nested(repo)
    git(lib, "config", "alias.y", "!sed -i 1d ../../.harness/tasks/*/events.jsonl")
    assert _denied_in(lib, "git y") == []
    assert guard_answer(lib, "Bash", {"command": "git status"}) == "allow"


def test_a_nested_repository_with_a_record_of_its_own_may_not_write_the_outer_work_tree(h, task, repo):
    """F-0115 where the nested repository holds a `.harness/` too (it is then the session's repository)."""
    lib = _nested(repo)
    (lib / ".harness").mkdir()
    assert _denied_in(lib, "git --work-tree=../.. checkout HEAD -- :/.harness",
                      "GIT_WORK_TREE=../.. git checkout -f HEAD -- :/") == []


def test_a_fifo_in_a_nested_repository_s_place_is_read_without_blocking(tmp_path):
    """The nested-repository facts read git's files as the rest of the guard does: a FIFO `.git` or `config`
    (which would block an open()) is no file to read (#25's task F-0027, for the facts this session added)."""
    from harness.agent.hook_facts import nested_repositories, other_git

    fifo = tmp_path / "vendor" / "fifo"
    fifo.mkdir(parents=True)
    os.mkfifo(fifo / ".git")
    lib = tmp_path / "vendor" / "lib"
    (lib / ".git").mkdir(parents=True)
    os.mkfifo(lib / ".git" / "config")
    assert other_git(str(tmp_path), str(fifo)) == "repository" and nested_repositories(str(tmp_path), str(fifo)) == ()
    assert other_git(str(tmp_path), str(lib)) == "repository"
    assert nested_repositories(str(tmp_path), str(lib)) == (str(lib),)
