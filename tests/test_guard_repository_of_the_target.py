"""The guard protects the harness's repository wherever the agent's session runs: from a folder holding a `.git`
entry that is no repository, from a repository nested inside, or from outside with an absolute path
(#25's task F-0020)."""

from __future__ import annotations

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
