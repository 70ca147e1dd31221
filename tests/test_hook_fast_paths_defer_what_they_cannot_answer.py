"""The hook calls answered before click loads defer to the full checks whenever the answer is not certain
(#28's task F-0139, F-0140): a merge being concluded however MERGE_HEAD names its commit (an abbreviated id
too, as git commit reads it), and any option on the call (`-h`, an unknown one), which click answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.gitrepo import git, head

FAST = [sys.executable, "-m", "harness"]
FULL = [sys.executable, "-c", "import sys; from harness.cli.main import main; sys.exit(main())"]


def run(prefix: list[str], args: list[str], cwd: Path) -> tuple[str, str, int]:
    p = subprocess.run([*prefix, *args], capture_output=True, text=True, cwd=cwd, env=dict(os.environ), timeout=300)
    return p.stdout, p.stderr, p.returncode


def _merge_dropping_a_task(h, repo: Path) -> None:
    """`git merge --no-commit -s ours other` where `other` adds a task: the merge drops it."""
    main = git(repo, "symbolic-ref", "--short", "HEAD").stdout.strip()
    git(repo, "checkout", "-qb", "other")
    h.ok("task", "new", "the other side's task")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task u", "--no-verify")
    git(repo, "checkout", "-q", main)
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-qm", "code", "--no-verify")
    git(repo, "merge", "-q", "--no-commit", "--no-ff", "-s", "ours", "other")


@pytest.mark.e2e  # real git commits, hooks installed
def test_a_merge_named_by_an_abbreviated_id_is_judged_in_full(h, task, repo):
    h.ok("install")
    _merge_dropping_a_task(h, repo)
    (repo / ".git" / "MERGE_HEAD").write_text(head(repo, "other")[:12] + "\n")
    full = run(FULL, ["hook", "validate"], repo)
    assert full[2] == 1, full
    assert run(FAST, ["hook", "validate"], repo)[2] == full[2]
    shim = subprocess.run([str(repo / ".git/hooks/pre-commit")], cwd=repo, capture_output=True, text=True)
    assert shim.returncode != 0, shim.stdout + shim.stderr
    assert git(repo, "commit", "-qm", "merge", check=False).returncode != 0


@pytest.mark.parametrize("args", [["hook", "validate", "-h"], ["hook", "run", "pre-commit", "-h"],
                                  ["hook", "validate", "--bogus"], ["hook", "merge-guard", "--bogus"],
                                  ["hook", "stamp", "-h"]])
def test_a_hook_call_with_an_option_is_answered_by_click(h, task, repo, args):
    (repo / "z.txt").write_text("z\n")
    git(repo, "add", "z.txt")  # a code-only commit being made: the fast path's case
    assert run(FAST, args, repo) == run(FULL, args, repo)
    assert git(repo, "for-each-ref", "refs/notes").stdout == ""  # `stamp -h` prints its help, and stamps nothing
