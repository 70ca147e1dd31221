"""Whether git holds a working tree's file as unmerged: a merge, rebase or cherry-pick stopped in conflict on it.

Asked only once a `.harness/` file failed to read, to name why: a conflict whose markers were edited out by hand
(both sides' lines kept, as one answers a conflict in an append-only file) leaves a ledger whose hash chain breaks,
and the remedy for that is the conflict's, not a `git checkout -- FILE` that git refuses for an unmerged path.
Read with `git ls-files` (no pygit2: `status` asks this too).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness.gitio.environment import git_env


def unmerged(root: Path, rel: str) -> bool:
    """True when the index of the repository at ``root`` holds ``rel`` (relative to its top) in conflict. Any doubt
    (not a repository, git missing) answers False: the caller then names the problem as it found it."""
    try:
        proc = subprocess.run(["git", "ls-files", "--unmerged", "-z", "--", f":(top,literal){rel}"], cwd=root,
                              env=git_env(), capture_output=True, check=False, timeout=60)
    except (OSError, ValueError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and bool(proc.stdout)
