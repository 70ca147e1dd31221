"""A shell command writing into a harness repository other than the session's — an absolute path from outside,
`../` out of a nested repository with a harness of its own — is judged against that repository (#25's task
F-0030)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer
from support.gitrepo import git


@pytest.fixture
def inner(h, task, repo):
    """A nested repository with a harness of its own, inside the harness's repository."""
    inner = repo / "vendor" / "inner"
    inner.mkdir(parents=True)
    git(inner, "init", "-q")
    (inner / ".harness").mkdir()
    return inner


@pytest.mark.parametrize("command", ["echo forged >> {outer}/.harness/approvals.jsonl", "rm -rf {outer}/.harness",
                                     "cp /dev/null {outer}/.git/hooks/pre-commit",
                                     "echo forged >> ../../.harness/approvals.jsonl"])
def test_a_write_into_the_outer_harness_from_a_nested_one_is_refused(repo, inner, command):
    assert guard_answer(inner, "Bash", {"command": command.format(outer=repo)}) == "deny"


def test_a_write_into_a_harness_from_outside_any_is_refused(h, task, repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert guard_answer(outside, "Bash", {"command": f"rm -rf {repo}/.harness"}) == "deny"
    assert guard_answer(outside, "Bash", {"command": f"echo x >> {repo}/.harness/approvals.jsonl"}) == "deny"
    assert guard_answer(outside, "Bash", {"command": f"ls {repo}/.harness && echo x > {outside}/notes.md"}) == "allow"


def test_the_nested_harness_s_own_work_goes_on(repo, inner):
    assert guard_answer(inner, "Bash", {"command": f"echo x > notes.md && cat {repo}/README.md"}) == "allow"
