"""What the agent's tool guard needs of a repository's git configuration: its aliases and
the folders git runs hooks from. One `git config` process and no pygit2 (the guard runs
before every agent tool call); the pure judge (harness.agent.judge.bypass) gets it as data.
"""

from __future__ import annotations

import os

from harness.gitio import spawned_git

TYPE_CHECKING = False  # pathlib costs the guard more than these few paths: they are joined as os.path strings
if TYPE_CHECKING:
    from pathlib import Path

    from harness.gitio.spawned_git import SpawnedGit

# Every config file git reads here (system, global, local, worktree, and what they include).
FRAMEWORK_CONFIG = ".pre-commit-config.yaml"
QUERY = r"^(alias\..*|core\.hookspath)$"


def aliases_and_hooks_path(root: str | Path) -> tuple[dict[str, str], str | None]:
    """(alias name -> expansion, core.hooksPath or None) as git resolves them in ``root``.
    A git that fails answers no aliases: the guard then judges commands as written."""
    return aliases_from(start_config(root))


def start_config(root: str | Path) -> SpawnedGit:
    """The `git config` process :func:`aliases_from` reads, started (so others can run beside it)."""
    return spawned_git.start(str(root), "config", "-z", "--get-regexp", QUERY)


def aliases_from(config: SpawnedGit) -> tuple[dict[str, str], str | None]:
    done = config.result()
    if done is None:
        return {}, None
    aliases: dict[str, str] = {}
    hooks_path = None
    for entry in done[1].decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = entry.partition("\n")
        if key.lower() == "core.hookspath":
            hooks_path = value
        elif key.startswith("alias."):
            aliases[key[len("alias."):]] = value
    return aliases, hooks_path


def hooks_dirs(root: str | Path, hooks_path: str | None) -> tuple[str, ...]:
    """The absolute folders git runs this repository's hooks from: the common git dir's hooks/
    (a linked worktree's `.git` file names it) and a configured core.hooksPath."""
    found = []
    common = _common_dir(os.fspath(root))
    if common is not None:
        found.append(os.path.realpath(os.path.join(common, "hooks")))
    if hooks_path:
        found.append(os.path.realpath(os.path.join(root, os.path.expanduser(hooks_path))))
    return tuple(found)


def _common_dir(root: str) -> str | None:
    """The common git folder of the repository at ``root`` (pathlib's joins and resolve(), in os.path terms)."""
    dot_git = os.path.join(root, ".git")
    if is_dir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    git_dir = os.path.realpath(os.path.join(root, text[len("gitdir:"):].strip()))
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8", errors="replace") as f:
            common = f.read().strip()
    except OSError:
        return git_dir
    return os.path.realpath(os.path.join(git_dir, common))


def framework_configs(root: str | Path, shows: tuple[SpawnedGit, SpawnedGit] | None = None
                      ) -> tuple[str | None, str | None, str | None]:
    """`.pre-commit-config.yaml` as HEAD, the index and the work tree hold it (None where absent):
    what a commit would carry, against what the last commit ran. ``shows``: the two `git show`
    processes :func:`start_framework_shows` started, else they are started here."""
    head, index = start_framework_shows(root) if shows is None else shows
    try:
        with open(os.path.join(root, FRAMEWORK_CONFIG), encoding="utf-8", errors="replace") as f:
            worktree: str | None = f.read()
    except OSError:
        worktree = None
    return _shown(head), _shown(index), worktree


def start_framework_shows(root: str | Path) -> tuple[SpawnedGit, SpawnedGit]:
    """`git show` of the framework config in HEAD and in the index, started."""
    return (spawned_git.start(str(root), "show", f"HEAD:{FRAMEWORK_CONFIG}"),
            spawned_git.start(str(root), "show", f":{FRAMEWORK_CONFIG}"))


def _shown(show: SpawnedGit) -> str | None:
    done = show.result()
    return done[1].decode("utf-8", "replace") if done is not None and done[0] == 0 else None


def is_dir(path: str) -> bool:
    """pathlib's Path.is_dir() in os terms: False where it is False, raising where it raises (a folder
    the guard may not search is an error, not an absent one)."""
    import errno
    import stat

    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise
    except ValueError:
        return False
