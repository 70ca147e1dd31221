"""What the agent's tool guard needs of a repository's git configuration: its aliases and
the folders git runs hooks from. One `git config` process and no pygit2 (the guard runs
before every agent tool call); the pure judge (harness.core.bypass) gets it as data.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.gitio.environment import git_env

# Every config file git reads here (system, global, local, worktree, and what they include).
FRAMEWORK_CONFIG = ".pre-commit-config.yaml"
QUERY = r"^(alias\..*|core\.hookspath)$"


def aliases_and_hooks_path(root: Path) -> tuple[dict[str, str], str | None]:
    """(alias name -> expansion, core.hooksPath or None) as git resolves them in ``root``.
    A git that fails answers no aliases: the guard then judges commands as written."""
    import subprocess

    try:
        proc = subprocess.run(["git", "config", "-z", "--get-regexp", QUERY], cwd=root, env=git_env(),
                              capture_output=True, check=False, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return {}, None
    aliases: dict[str, str] = {}
    hooks_path = None
    for entry in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = entry.partition("\n")
        if key.lower() == "core.hookspath":
            hooks_path = value
        elif key.startswith("alias."):
            aliases[key[len("alias."):]] = value
    return aliases, hooks_path


def hooks_dirs(root: Path, hooks_path: str | None) -> tuple[str, ...]:
    """The absolute folders git runs this repository's hooks from: the common git dir's hooks/
    (a linked worktree's `.git` file names it) and a configured core.hooksPath."""
    found = []
    common = _common_dir(root)
    if common is not None:
        found.append(os.path.realpath(common / "hooks"))
    if hooks_path:
        found.append(os.path.realpath(root / os.path.expanduser(hooks_path)))
    return tuple(found)


def _common_dir(root: Path) -> Path | None:
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        text = dot_git.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    git_dir = (root / text[len("gitdir:"):].strip()).resolve()
    try:
        common = (git_dir / "commondir").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return git_dir
    return (git_dir / common).resolve()


def framework_configs(root: Path) -> tuple[str | None, str | None, str | None]:
    """`.pre-commit-config.yaml` as HEAD, the index and the work tree hold it (None where absent):
    what a commit would carry, against what the last commit ran."""
    import subprocess

    def show(spec: str) -> str | None:
        try:
            proc = subprocess.run(["git", "show", spec], cwd=root, env=git_env(), capture_output=True,
                                  check=False, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None

    try:
        worktree: str | None = (root / FRAMEWORK_CONFIG).read_text(encoding="utf-8", errors="replace")
    except OSError:
        worktree = None
    return show(f"HEAD:{FRAMEWORK_CONFIG}"), show(f":{FRAMEWORK_CONFIG}"), worktree
