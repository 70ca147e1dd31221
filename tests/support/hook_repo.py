"""This project as a pre-commit hook repository, and a user's repository installing it."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from support.cli import Harness
from support.environment import GIT_ENV
from support.paths import PY, ROOT, outside_env, project_files

STAGES = ["pre-commit", "post-commit", "post-merge", "post-rewrite", "pre-merge-commit", "pre-push"]


def build_hook_repo(base: Path) -> tuple[Path, str]:
    """A committed copy of this project's files: what `repo:` points at in a user's config."""
    dest = base / "hook-repo"
    dest.mkdir()
    for rel in project_files():
        src = ROOT / rel
        if not src.is_file():  # deleted in the work tree, or a submodule
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    env = outside_env(**GIT_ENV)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "commit.gpgsign=false", "commit", "-qm", "hook repo"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True, capture_output=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=dest, env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    return dest, sha


def config_text(hook_repo: Path, sha: str) -> str:
    hooks = ["harness-validate", "harness-stamp", "harness-merge-guard", "harness-push-guard",
             "harness-gate", "harness-audit"]
    return (
        f"default_install_hook_types: [{', '.join(STAGES)}]\n"
        "repos:\n"
        f"- repo: {hook_repo}\n"
        f"  rev: {sha}\n"
        "  hooks:\n" + "".join(f"  - id: {h}\n" + ("    verbose: true\n" if h == "harness-push-guard" else "")
                                for h in hooks)
    )


@dataclass
class Pc:
    repo: Path
    remote: Path
    h: Harness
    base: str  # the commit holding `harness init` and .pre-commit-config.yaml


def install_pc(repo: Path, hook_repo: dict) -> None:
    """Write the user's .pre-commit-config.yaml and run `pre-commit install` (nothing committed)."""
    (repo / ".pre-commit-config.yaml").write_text(config_text(hook_repo["path"], hook_repo["sha"]))
    proc = subprocess.run([PY, "-m", "pre_commit", "install"], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for stage in STAGES:
        assert (repo / ".git" / "hooks" / stage).exists(), f"pre-commit did not install {stage}"
