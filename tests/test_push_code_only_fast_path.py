"""A code-only push is answered from git before click or pygit2 loads, with exactly the answer
(exit code and words) of the full push guard; anything else is left to the full push guard."""

from __future__ import annotations

import subprocess
import sys

import pytest

from harness.cli import launch
from harness.gitio.push_fast_path import code_only_push

from support.cli import cli
from support.gitrepo import commit_all_ok, git, head

URL = "/nowhere/remote.git"


def _line(repo, tip: str, old: str) -> str:
    return f"refs/heads/main {head(repo, tip)} refs/heads/main {old if len(old) == 40 else head(repo, old)}\n"


def _both(repo, monkeypatch, stdin: str, *args: str) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """(the entry point's answer, the full push guard's answer) to the same push."""
    fast = cli(repo, *args, stdin=stdin)
    with monkeypatch.context() as m:
        m.setattr(launch, "push_answer", lambda _args: None)
        full = cli(repo, *args, stdin=stdin)
    return fast, full


def _same(fast, full) -> None:
    assert (fast.returncode, fast.stderr.strip()) == (full.returncode, full.stderr.strip())


def _code_commits(repo, n: int) -> None:
    for i in range(n):
        (repo / "src").mkdir(exist_ok=True)
        (repo / "src" / "code.txt").write_text(f"revision {i}\n")
        commit_all_ok(repo, f"code {i}")


@pytest.fixture
def pushed(h, task):
    """A repository whose .harness/ is committed, then three code-only commits to push."""
    commit_all_ok(h.root, "task")
    base = head(h.root)
    _code_commits(h.root, 3)
    return h.root, base


@pytest.mark.parametrize("args", [("hook", "push-guard", "origin", URL), ("hook", "run", "pre-push", "origin", URL)])
def test_a_code_only_push_is_answered_as_the_full_guard_answers_it(pushed, monkeypatch, args):
    repo, base = pushed
    stdin = _line(repo, "HEAD", base)
    monkeypatch.chdir(repo)
    assert code_only_push([stdin.encode()], "origin") == 3
    fast, full = _both(repo, monkeypatch, stdin, *args)
    _same(fast, full)
    assert fast.returncode == 0 and "3 commit(s) checked, no problems" in fast.stderr


def test_a_push_that_changes_harness_files_goes_to_the_full_guard(pushed, monkeypatch, h):
    repo, base = pushed
    h.ok("requirement", "add", "It works", "--priority", "must")
    commit_all_ok(repo, "a ledger change")
    stdin = _line(repo, "HEAD", base)
    monkeypatch.chdir(repo)
    assert code_only_push([stdin.encode()], "origin") is None
    _same(*_both(repo, monkeypatch, stdin, "hook", "push-guard", "origin", URL))


def _tree_with_duplicate(repo, name: str, inside: str | None = None) -> str:
    """HEAD's tree with the entry ``name`` (at the top, or inside the folder ``inside``) twice."""
    def listing(tree: str) -> str:
        return git(repo, "ls-tree", tree).stdout

    def doubled(text: str) -> str:
        extra = next(line for line in text.splitlines() if line.endswith(f"\t{name}"))
        return text + extra + "\n"

    def mktree(text: str) -> str:
        return subprocess.run(["git", "mktree", "--missing"], cwd=repo, input=text, capture_output=True, text=True,
                              check=True).stdout.strip()

    root = listing("HEAD^{tree}")
    if inside is None:
        return mktree(doubled(root))
    sub = mktree(doubled(listing(f"HEAD:{inside}")))
    lines = [line if not line.endswith(f"\t{inside}") else f"040000 tree {sub}\t{inside}" for line in root.splitlines()]
    return mktree("\n".join(lines) + "\n")


@pytest.mark.parametrize("where", ["root", "harness"])
def test_a_code_only_commit_on_a_tree_git_fsck_rejects_is_left_to_the_full_guard(pushed, monkeypatch, where):
    """A careless fast path would pass it: its .harness entry is its parent's."""
    repo, base = pushed
    bad = _tree_with_duplicate(repo, "src" if where == "root" else "gate.yaml", None if where == "root" else ".harness")
    broken = git(repo, "commit-tree", bad, "-p", "HEAD", "-m", "hand-made").stdout.strip()
    git(repo, "update-ref", "HEAD", broken)
    _code_commits(repo, 1)  # a code-only commit on top carries the same tree defect in .harness/
    stdin = _line(repo, "HEAD", base)
    monkeypatch.chdir(repo)
    assert code_only_push([stdin.encode()], "origin") is None
    fast, full = _both(repo, monkeypatch, stdin, "hook", "push-guard", "origin", URL)
    _same(fast, full)
    assert fast.returncode == 1 and "fsck-clean-tree" in fast.stderr


def test_a_push_reaching_a_root_or_a_merge_goes_to_the_full_guard(pushed, monkeypatch):
    repo, base = pushed
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    git(repo, "checkout", "-q", "-b", "side", base)
    (repo / "side.txt").write_text("side\n")
    commit_all_ok(repo, "side")
    git(repo, "checkout", "-q", main)
    git(repo, "merge", "-q", "--no-edit", "side")
    assert len(git(repo, "rev-list", "--parents", "-n1", "HEAD").stdout.split()) == 3
    monkeypatch.chdir(repo)
    for stdin in (_line(repo, "HEAD", base), _line(repo, "HEAD", "0" * 40)):
        assert code_only_push([stdin.encode()], "origin") is None
        _same(*_both(repo, monkeypatch, stdin, "hook", "push-guard", "origin", URL))


@pytest.mark.parametrize("stdin", ["refs/heads/main HEAD refs/heads/main HEAD~1\n", "one two\n",
                                   "refs/heads/main " + "a" * 40 + " refs/heads/main " + "0" * 40 + "\n"])
def test_a_line_git_would_not_write_or_a_missing_object_gets_the_full_guards_refusal(pushed, monkeypatch, stdin):
    repo, _ = pushed
    monkeypatch.chdir(repo)
    assert code_only_push([stdin.encode()], "origin") is None
    fast, full = _both(repo, monkeypatch, stdin, "hook", "push-guard", "origin", URL)
    _same(fast, full)
    assert fast.returncode != 0


def test_a_deletion_or_a_push_of_nothing_new_is_answered_alike(pushed, monkeypatch):
    repo, _ = pushed
    for stdin in (f"(delete) {'0' * 40} refs/heads/gone {head(repo)}\n", _line(repo, "HEAD", "HEAD")):
        _same(*_both(repo, monkeypatch, stdin, "hook", "push-guard", "origin", URL))


def test_the_code_only_push_loads_neither_click_nor_pygit2(pushed):
    repo, base = pushed
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in "
             "('click', 'pygit2') or m.startswith(('harness.history', 'harness.history.rerun', 'harness.store.reader')))))\n"
             "sys.argv = ['harness', 'hook', 'run', 'pre-push', 'origin', '/nowhere']\n"
             "from harness.cli.launch import entry\n"
             "entry()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, input=_line(repo, "HEAD", base), text=True,
                          capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "LOADED []" in proc.stdout
    assert "3 commit(s) checked, no problems" in proc.stderr
