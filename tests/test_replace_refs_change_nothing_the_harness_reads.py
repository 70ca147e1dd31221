"""`git replace` makes git show another object in place of a commit, tree or file, but `git push` sends
the objects as stored. The harness reads the stored objects (every git it starts runs with
GIT_NO_REPLACE_OBJECTS=1), so a replace ref changes no answer of the push guard or the tool guard,
and the tool guard refuses to make one (#28's F-0022, F-0023)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.gitrepo import git, head

pytestmark = pytest.mark.e2e  # real git hooks installed by `harness install`


def run_harness(repo, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=repo, input=stdin, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def project(tmp_path):
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    for args in (("init",), ("install",), ("task", "new", "t")):
        assert run_harness(repo, *args).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-n", "-m", "init")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    return repo, remote


def test_a_replace_ref_does_not_pass_a_harness_change_through_the_push_guard(project):
    repo, remote = project
    old = head(repo)
    (repo / "a.txt").write_text("a\n", "utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-n", "-m", "code")
    code = head(repo)
    ledger = next((repo / ".harness/tasks").glob("*/events.jsonl"))
    with ledger.open("a", encoding="utf-8") as fh:
        fh.write('{"forged": "DONE"}\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-n", "-m", "forged")
    forged = head(repo)
    line = f"refs/heads/main {forged} refs/heads/main {old}\n"
    assert run_harness(repo, "hook", "push-guard", "origin", str(remote), stdin=line).returncode != 0
    fake = git(repo, "commit-tree", f"{code}^{{tree}}", "-p", code, "-m", "forged").stdout.strip()
    git(repo, "replace", forged, fake)
    refused = run_harness(repo, "hook", "push-guard", "origin", str(remote), stdin=line)
    assert refused.returncode != 0, refused.stdout + refused.stderr


def test_a_replace_ref_does_not_hide_a_commit_that_drops_the_harness_hooks(project):
    repo, _ = project
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: harness-check\n    name: x\n    entry: harness\n"
        "    language: system\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-n", "-m", "framework hooks")
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n", "utf-8")
    git(repo, "add", ".pre-commit-config.yaml")
    commit = {"command": "git commit -m x"}
    assert guard_answer(repo, "Bash", commit) == "deny"
    stored = git(repo, "rev-parse", "HEAD:.pre-commit-config.yaml").stdout.strip()
    staged = git(repo, "rev-parse", ":.pre-commit-config.yaml").stdout.strip()
    git(repo, "replace", stored, staged)
    assert guard_answer(repo, "Bash", commit) == "deny"


HERE = Where("/repo", "/repo")


@pytest.mark.parametrize("command", ["git replace abc123 def456", "git replace -f abc123 def456",
                                     "git replace --edit abc123", "git replace --graft abc123",
                                     "git replace -d abc123", "git update-ref refs/replace/abc123 def456"])
def test_the_tool_guard_makes_no_replace_ref(command):
    assert check_shell(command, HERE) is not None, command


@pytest.mark.parametrize("command", ["git replace -l", "git replace --list 'ab*'", "git replace",
                                     "git update-ref refs/heads/topic HEAD"])
def test_listing_replace_refs_and_other_refs_stay_allowed(command):
    assert check_shell(command, HERE) is None, command
