"""The steps config.yaml took along a line of history: each commit of the first-parent line from a task's base to a
tip that changed it, with the parent it changed it from. A chain of config-change approvals covers them one by one
(read 102's F-0360: `harness approve config-change` binds to the file HEAD has, so a second approved change was
bound to none the base had). Read with `git rev-list` and `git cat-file` (no pygit2: `status` asks this too)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness.gitio.environment import git_env
from harness.paths import CONFIG


def steps(root: Path, tip: str, since: str) -> tuple[str, list[tuple[str, str]]] | None:
    """(the tip's commit id, [(parent, commit), …] oldest first) for the commits of ``tip``'s first-parent line after
    ``since`` whose config.yaml is not their first parent's. None when ``since`` is not on that line (a merge brought
    the base in from a side, HEAD moved off it) or git cannot say: no chain of steps leads from it then. The first
    parent alone, as a merge's own approval is bound to it: a side line's config changes reach the line through the
    merge, one step."""
    tip_id = _git(root, "rev-parse", "--verify", "-q", f"{tip}^{{commit}}").stdout.strip()
    base = _git(root, "rev-parse", "--verify", "-q", f"{since}^{{commit}}").stdout.strip()
    if not tip_id or not base:
        return None
    listed = _git(root, "rev-list", "--first-parent", "--parents", tip_id, f"^{base}")
    if listed.returncode != 0:
        return None
    line = [(row.split()[1] if len(row.split()) > 1 else None, row.split()[0]) for row in listed.stdout.splitlines()]
    if (line[-1][0] if line else tip_id) != base:
        return None  # the line never passes through the base: the oldest commit after it is not its child
    asked = "".join(f"{rev}:{CONFIG}\n" for pair in line for rev in pair if rev)
    found = subprocess.run(["git", "cat-file", "--batch-check"], cwd=root, env=git_env(), input=asked,
                           capture_output=True, text=True, check=False)
    # "<id> blob <size>", or "<what was asked> missing" where the commit holds no config.yaml: one value for all such
    blobs = [None if row.endswith(" missing") else row.split()[0] for row in found.stdout.splitlines()]
    if found.returncode != 0 or len(blobs) != 2 * len(line):
        return None
    changed = [(parent, commit) for n, (parent, commit) in enumerate(line) if blobs[2 * n] != blobs[2 * n + 1]]
    return tip_id, [(str(parent), commit) for parent, commit in reversed(changed)]


def _git(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *argv], cwd=root, env=git_env(), capture_output=True, text=True, check=False)
