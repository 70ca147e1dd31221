"""The push hooks refuse standard input git would never give them, instead of checking nothing.

Skipped, a line of another shape (or an object the repository does not hold) left zero commits to
check, and the hook passed: "0 commit(s) checked, no problems"."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support.cli import cli
from support.gitrepo import ZERO, head

PUSH_FORM = "<local ref> <local sha> <remote ref> <remote sha>"
GARBAGE = ["garbage", "abc def", "refs/heads/main zz refs/heads/main 0000", "HEAD 1234 refs/heads/main " + ZERO]


def _hook(repo, *args: str, stdin: str) -> subprocess.CompletedProcess:
    return cli(repo, "hook", *args, stdin=stdin)


@pytest.mark.parametrize("line", GARBAGE)
def test_the_push_guard_refuses_a_line_git_never_writes(h, repo, line):
    p = _hook(repo, "push-guard", "origin", "url", stdin=line + "\n")
    assert p.returncode == 2 and "not a line git gives this hook" in p.stderr and PUSH_FORM in p.stderr, p.stderr


def test_the_push_guard_refuses_a_pushed_object_this_repository_does_not_hold(h, repo):
    p = _hook(repo, "push-guard", "origin", "url", stdin=f"refs/heads/main {'ab' * 20} refs/heads/main {ZERO}\n")
    assert p.returncode == 2 and "is not in this repository" in p.stderr, p.stderr


def test_the_push_guard_still_passes_a_well_formed_push_and_a_deletion(h, repo):
    tip = head(repo)
    lines = f"\nrefs/heads/main {tip} refs/heads/main {ZERO}\n(delete) {ZERO} refs/heads/old {tip}\n"
    p = _hook(repo, "push-guard", "origin", "url", stdin=lines)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("line", ["abc def", f"{ZERO} refs/heads/main", f"{ZERO} {'1' * 39} refs/heads/main"])
def test_the_pre_receive_hook_refuses_a_line_git_never_writes(h, repo, line):
    p = _hook(repo, "pre-receive", stdin=line + "\n")
    assert p.returncode == 2 and "<old sha> <new sha> <ref>" in p.stderr, p.stderr


def test_a_push_source_typed_as_a_revision_with_spaces_is_read_from_the_right(h, repo):
    # git writes the source as the user typed it: `git push origin 'HEAD^{/fix bug}:refs/heads/x'`.
    tip = head(repo)
    p = _hook(repo, "push-guard", "origin", "url", stdin=f"HEAD^{{/fix bug}} {tip} refs/heads/x {ZERO}\n")
    assert p.returncode == 0, p.stderr


def test_json_for_a_failure_on_a_stdout_that_cannot_be_written_is_no_traceback(h, repo):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "harness", "status", "--json", "--task", "TASK-20990101-000000"],
                           cwd=repo, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "no task" in p.stderr, p.stderr
