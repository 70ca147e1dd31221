"""Fixtures: real git repositories in temp folders, the harness CLI run against them, and the
pre-commit framework's environment for this hook repository. Plain helpers are in helpers.py."""

from __future__ import annotations

import compileall
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from helpers import (
    GIT_ENV,
    PY,
    ROOT,
    Harness,
    Pc,
    build_hook_repo,
    commit_ok,
    config_text,
    git,
    head,
    install_pc,
    once_per_run,
    outside_env,
)

# Property and fuzz tests: a small default that keeps the suite quick and deterministic (the
# same examples on every run, so CI's verdict does not depend on the draw), and a long random
# run on demand to find new cases (`pytest --hypothesis-profile=long tests/test_fuzz_inputs.py`).
# No example database: nothing is written into the checkout.
_FUZZ = {"database": None, "deadline": None,
         "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                   HealthCheck.function_scoped_fixture]}
settings.register_profile("default", max_examples=40, derandomize=True, **_FUZZ)
settings.register_profile("long", max_examples=2000, derandomize=False, **_FUZZ)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    # Every `python -m harness` a test starts imports the package from source; with
    # PYTHONDONTWRITEBYTECODE=1 (this project's CI and dev shells) none of them would write its
    # bytecode, so each would compile the whole package again. Compile it once, before the run
    # (the controller only, not each xdist worker); __pycache__/ is ignored by git.
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(str(ROOT / "harness"), quiet=1)


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


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory) -> dict:
    """{'path', 'sha', 'home'}: the hook repository and a PRE_COMMIT_HOME whose environment is built.

    Built once per test run, shared by the xdist workers: the pip install of the hook repository
    into pre-commit's environment is slow once, then reused by every test."""

    def build(base: Path) -> dict:
        path, sha = build_hook_repo(base)
        home = base / "pre-commit-home"
        seed = base / "seed"
        seed.mkdir()
        env = outside_env(**GIT_ENV, PRE_COMMIT_HOME=str(home))
        subprocess.run(["git", "init", "-q"], cwd=seed, env=env, check=True, capture_output=True)
        (seed / ".pre-commit-config.yaml").write_text(config_text(path, sha))
        proc = subprocess.run([PY, "-m", "pre_commit", "install-hooks"], cwd=seed, env=env,
                              capture_output=True, text=True, timeout=1200)
        assert proc.returncode == 0, f"pre-commit install-hooks failed:\n{proc.stdout}\n{proc.stderr}"
        return {"path": str(path), "sha": sha, "home": str(home)}

    _, built = once_per_run(tmp_path_factory, "hook-repo", build)
    return {"path": Path(built["path"]), "sha": built["sha"], "home": Path(built["home"])}


@pytest.fixture
def pc(h, repo, tmp_path, hook_repo, monkeypatch) -> Pc:
    """``repo`` with .harness/ initialized, the pre-commit hooks installed and committed, and a
    bare remote as origin holding that history."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hook_repo["home"]))
    install_pc(repo, hook_repo)
    git(repo, "add", "-A")
    commit_ok(repo, "harness init and pre-commit config")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    # The remote starts with the project's history (pushed without hooks: the history from before
    # `harness init` is the subject of its own test, test_history_from_before_harness_init_...).
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "main")
    return Pc(repo, remote, h, head(repo))


@pytest.fixture
def ft(h, repo) -> str:
    """A task in a repository whose bytecode and pytest caches are ignored (so running Python does
    not change the source tree); returns the task id."""
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", "utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore caches")
    return h.ok("task", "new", "Findings").out.strip()
