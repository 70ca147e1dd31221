"""Fixtures: real git repositories in temp folders, and the harness CLI run against them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path_factory):
    # Tests never depend on (or write to) the machine's git config.
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    for var in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "SKIP"):
        monkeypatch.delenv(var, raising=False)


def git(cwd: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


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
        from harness.cli.main import main

        self.capfd.readouterr()
        old = os.getcwd()
        os.chdir(cwd or self.root)
        try:
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


@pytest.fixture
def repo(tmp_path) -> Path:
    """An empty git repository with one commit of source code."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("def answer():\n    return 42\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    return root


@pytest.fixture
def h(repo, capfd) -> Harness:
    """The harness CLI, initialized in ``repo``."""
    harness = Harness(repo, capfd)
    harness.ok("init")
    return harness


@pytest.fixture
def task(h) -> str:
    """A fresh current task; returns its id."""
    return h.ok("task", "new", "Add resumable execution").out.strip()


def walk_to(h: Harness, *states: str) -> None:
    for state in states:
        h.ok("transition", state)


TO_VERIFYING = ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING")


def gone(pid: int, within: float = 5.0) -> bool:
    """True once ``pid`` no longer runs (missing, or a zombie awaiting its reaper)."""
    deadline = time.monotonic() + within
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
