"""Running `harness` in a test: in this process (fast) or as a real process, and walking a task's states."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from support.gitrepo import git
from support.paths import PY

TO_VERIFYING = ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING")


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


class Harness:
    """Runs `harness` in a repository: in-process by default (fast), or as a real process."""

    def __init__(self, root: Path, capfd) -> None:
        self.root, self.capfd = root, capfd

    def __call__(self, *args: str, cwd: Path | None = None) -> Result:
        from harness.cli.launch import fast_answer
        from harness.cli.main import main

        self.capfd.readouterr()
        old = os.getcwd()
        os.chdir(cwd or self.root)
        try:  # as the entry point runs it: the git-hook calls it answers before the CLI first
            code = fast_answer(list(args))
            if code is None:
                code = main(list(args))
        finally:
            os.chdir(old)
        out, err = self.capfd.readouterr()
        return Result(code, out, err)

    def proc(self, *args: str, cwd: Path | None = None, env: dict | None = None,
             timeout: float = 120) -> Result:
        p = subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd or self.root, capture_output=True,
                           text=True, env={**os.environ, **(env or {})}, timeout=timeout)
        return Result(p.returncode, p.stdout, p.stderr)

    def ok(self, *args: str) -> Result:
        r = self(*args)
        assert r.code == 0, f"harness {' '.join(args)} exited {r.code}:\n{r.text}"
        return r


class _Buffers:
    """``capfd``'s ``readouterr`` over in-memory streams."""

    def __init__(self) -> None:
        self.out, self.err = io.StringIO(), io.StringIO()

    def readouterr(self) -> tuple[str, str]:
        text = self.out.getvalue(), self.err.getvalue()
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        return text


@contextmanager
def in_process(root: Path) -> Iterator[Harness]:
    """A Harness for code running outside a test (the builds of session templates), with no
    ``capfd``: what the CLI prints goes to buffers while the block runs."""
    buffers = _Buffers()
    with redirect_stdout(buffers.out), redirect_stderr(buffers.err):
        yield Harness(root, buffers)


def cli(repo: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`harness ARGS` in ``repo``, in this process, with ``stdin`` as standard input, reported as
    a finished process would be. For commands that read only the repository, the environment and
    stdin (hooks, audit): a process of their own adds ~0.3 s (Python, click, pygit2) and proves
    nothing more; tests of what only a process shows (signals, exit paths) start one."""
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    try:
        with in_process(repo) as h:
            r = h(*args)
    finally:
        sys.stdin = old_stdin
    return subprocess.CompletedProcess(["harness", *args], r.code, r.out, r.err)


def validate_staged(repo: Path) -> subprocess.CompletedProcess:
    """Stage everything and run the commit hook's check (`harness hook validate`) on it, in this
    process (the e2e tests run it from real git hooks)."""
    git(repo, "add", "-A")
    return cli(repo, "hook", "validate")


def commit_validated(repo: Path, message: str) -> None:
    """Commit everything, after the commit hook's own check accepted it (no hook is installed in the test's repo)."""
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    git(repo, "commit", "-qm", message)


def walk_to(h: Harness, *states: str) -> None:
    for state in states:
        h.ok("transition", state)


def start_harness(repo: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([PY, "-m", "harness", *args], cwd=repo, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ))


def status_json(h: Harness, *extra: str) -> dict:
    return json.loads(h.ok("status", "--json", *extra).out)


def gate_json(h, *extra: str) -> tuple[int, dict]:
    r = h("gate", "--json", *extra)
    return r.code, json.loads(r.out)
