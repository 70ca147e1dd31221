"""A code-only push answered before the CLI loads ends its process as the agent guard does, without the
interpreter's teardown (harness.cli.quick_exit): the same exit code and words as the normal exit; a push
the full guard answers exits as it always has."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support.gitrepo import commit_all_ok, head

URL = "/nowhere/remote.git"


@pytest.fixture
def pushed(h, task):
    commit_all_ok(h.root, "task")
    base = head(h.root)
    for i in range(2):
        (h.root / "code.txt").write_text(f"revision {i}\n")
        commit_all_ok(h.root, f"code {i}")
    return h.root, base


def push(repo, stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=repo, input=stdin, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args", [("hook", "run", "pre-push", "origin", URL), ("hook", "push-guard", "origin", URL)])
def test_a_code_only_push_exits_with_its_answer(pushed, args):
    repo, base = pushed
    proc = push(repo, f"refs/heads/main {head(repo)} refs/heads/main {base}\n", *args)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.strip() == "harness: push guard: 2 commit(s) checked, no problems"


def test_a_push_the_full_guard_answers_exits_as_before(pushed):
    repo, _ = pushed
    proc = push(repo, "refs/heads/main " + "a" * 40 + " refs/heads/main " + "0" * 40 + "\n",
                "hook", "run", "pre-push", "origin", URL)
    assert proc.returncode != 0 and proc.stderr
