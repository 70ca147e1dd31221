"""A commit whose `.harness` is no folder holds none of the record, whatever object id its entry names:
a submodule entry (a gitlink) naming the parent's `.harness` tree compares equal by id, yet a checkout of
it writes an empty folder. Refused when staged, at push (the fast path leaves it to the full guard, which
refuses it), and in the commit checks audit and the server run (#28's task F-0034)."""

from __future__ import annotations

import pytest

from harness.gitio.git import Git
from harness.history.hook_checks import staged_problems
from harness.history.incoming import check_commit

from support.cli import cli
from support.gitrepo import commit_all_ok, git, head


def _replace_harness(repo, mode: str, oid: str) -> None:
    listed = git(repo, "ls-files", "-z", "--", ".harness").stdout.split("\0")
    git(repo, "update-index", "--force-remove", "--", *[p for p in listed if p])
    git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{oid},.harness")


@pytest.fixture
def committed(h, task):
    commit_all_ok(h.root, "task")
    return h.root


def _blob(repo) -> str:
    return git(repo, "rev-parse", "HEAD:.harness/gate.yaml").stdout.strip()


@pytest.mark.parametrize(("kind", "mode"), [("submodule", "160000"), ("file", "100644"), ("symlink", "120000")])
def test_a_harness_entry_that_is_no_folder_is_refused_staged_and_committed(committed, kind, mode):
    repo = committed
    parent = head(repo)
    oid = git(repo, "rev-parse", "HEAD:.harness").stdout.strip() if kind == "submodule" else _blob(repo)
    _replace_harness(repo, mode, oid)
    staged = staged_problems(Git(repo))
    assert [(p.file, p.rule) for p in staged] == [(".harness", "plain-files-only")], staged
    assert f".harness is a {kind} entry, not a folder" in staged[0].render()
    git(repo, "commit", "-q", "--no-verify", "-m", "no record")  # made past the hooks, as a push may bring it
    from harness.signatures.trust import Signers

    report = check_commit(Git(repo), head(repo), Signers())
    assert [(p.file, p.rule) for p in report.problems] == [(".harness", "plain-files-only")], report.problems
    line = f"refs/heads/main {head(repo)} refs/heads/main {parent}\n"
    pushed = cli(repo, "hook", "run", "pre-push", "origin", "/nowhere/remote.git", stdin=line)
    assert pushed.returncode != 0 and ".harness is a " in pushed.stderr, pushed.stderr


def test_the_folder_itself_still_passes(committed):
    # The control: the same steps with .harness left a folder change nothing.
    assert staged_problems(Git(committed)) == []


@pytest.mark.parametrize(("command", "answer"), [
    ("git update-index --force-remove .harness/config.yaml", "deny"),
    ("git update-index --add --cacheinfo 160000,4b825dc642cb6eb9a060e54bf8d69288fbee4904,.harness", "deny"),
    ("git update-index --add --cacheinfo 100644 4b825dc642cb6eb9a060e54bf8d69288fbee4904 .harness/x", "deny"),
    ("git update-index --assume-unchanged src/app.py", "allow"),   # the user's own files: theirs to flag
    ("git update-index --refresh", "allow"),
])
def test_the_agent_guard_refuses_update_index_on_the_record(committed, command, answer):
    from support.agent_guard import guard_answer

    assert guard_answer(committed, "Bash", {"command": command}) == answer
