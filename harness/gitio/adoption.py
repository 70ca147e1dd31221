"""Where a repository adopted the harness, for a task whose recorded base predates it.

A change that adopts the harness configures every evidence command itself ("whoever adopts it configures
every type"); any later change of a command needs a human's approval before it verifies a must requirement.
Which of the two a task is was told by its base alone: no config.yaml there meant adoption. The base is HEAD
when `harness task new` ran, which the agent chooses (an orphan branch, a `git reset --soft` to a commit from
before the adoption): a command added after the real adoption then passed as adopted (read 52's F-0098). The
history the judged commit stands on says where the adoption was: the earliest commit in it, after the base,
whose tree holds config.yaml. Read with one `git rev-list` (no pygit2: `status` asks this too).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness.errors import HarnessError
from harness.gitio.environment import git_env


def first_holding(root: Path, rev: str, since: str | None, path: str) -> str | None:
    """The earliest commit reachable from ``rev`` and not from ``since`` that changes ``path`` (parents before
    children): where ``path``, absent at ``since``, first appeared. None when no such commit (or no ``rev``: an
    unborn branch) exists."""
    argv = ["git", "rev-list", "--topo-order", "--reverse", rev, *([f"^{since}"] if since else []), "--", path]
    proc = subprocess.run(argv, cwd=root, env=git_env(), capture_output=True, text=True, check=False)
    if proc.returncode == 0:
        found = proc.stdout.split("\n", 1)[0].strip()
        return found or None
    born = subprocess.run(["git", "rev-parse", "--verify", "-q", f"{rev}^{{commit}}"], cwd=root, env=git_env(),
                          capture_output=True, check=False).returncode == 0
    if not born:
        return None  # no history yet: the adoption is the change being judged
    raise HarnessError(f"cannot read the history of {rev[:12]} for where the harness was adopted: "
                       f"{(proc.stderr.strip().splitlines() or ['git rev-list failed'])[-1]}",
                       hint="a partial or damaged clone? `git fetch` the missing history")


def is_shallow(root: Path) -> bool:
    """Whether the repository at ``root`` is a shallow clone (its history stops at a boundary)."""
    proc = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=root, env=git_env(),
                          capture_output=True, text=True, check=False)
    return proc.stdout.strip() == "true"
