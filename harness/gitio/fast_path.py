"""What a hook asks of git alone, without pygit2: a code-only commit's answer and its stamp.

`harness/cli/launch.py` answers those before click or pygit2 is imported, so this module
imports neither, nor any of this package but :mod:`environment`: each call is one or two
`git` processes, run in the current directory with the environment git set for the hook.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from harness.errors import HarnessError
from harness.gitio.environment import HARNESS_DIR, git_env


def staged_nothing_to_judge(env: dict[str, str] | None = None) -> bool:
    """True when the commit being made stages no ``.harness/`` change and concludes no merge:
    then no commit-time rule has anything to judge. Asked of git alone (no pygit2), in the
    current directory, with $GIT_INDEX_FILE as git set it (so `commit -a` and `commit PATH`
    are judged on the index they commit). Any doubt (an error) answers False."""
    env = dict(os.environ if env is None else env)
    if any(key.startswith("GITHEAD_") for key in env):
        return False  # `git merge` names the commits being merged this way in pre-merge-commit
    merging = subprocess.run(["git", "rev-parse", "-q", "--verify", "MERGE_HEAD"], env=env,
                             capture_output=True, check=False).returncode
    if merging != 1:
        return False  # 0: a merge is being concluded; anything else: cannot tell
    # --ignore-submodules=none: a config hiding submodule changes must not hide one in .harness/
    staged = subprocess.run(["git", "diff", "--cached", "--quiet", "--no-ext-diff", "--ignore-submodules=none",
                             "--", f":(top){HARNESS_DIR}"], env=env, capture_output=True, check=False).returncode
    return staged == 0


def head_facts() -> tuple[Path, str, list[str], list[tuple[bytes, str]], str] | None:
    """(common git dir, HEAD, its parents, its root tree's entries as (ls-tree line, name), the
    first parent's ``.harness`` id) from two git processes and no pygit2 — what the stamp of a
    code-only commit needs. None when any of it is missing (no HEAD, a root commit, no .harness)."""
    rev = subprocess.run(["git", "rev-parse", "--git-common-dir", "HEAD", f"HEAD^:{HARNESS_DIR}", "HEAD^@"],
                         capture_output=True, text=True, check=False)
    listing = subprocess.run(["git", "ls-tree", "-z", "--full-tree", "HEAD"], capture_output=True, check=False)
    if rev.returncode != 0 or listing.returncode != 0:
        return None
    common, head, parent_harness, *parents = rev.stdout.split("\n")[:-1]
    entries = [(line, line.split(b"\t", 1)[1].decode("utf-8", "surrogateescape"))
               for line in listing.stdout.split(b"\0") if b"\t" in line]
    return Path(common).resolve(), head, parents, entries, parent_harness


def entry_id(entries: list[tuple[bytes, str]], name: str) -> str | None:
    for line, entry_name in entries:
        if entry_name == name:
            return line.split(b"\t", 1)[0].split()[2].decode("ascii")
    return None


def tree_without(entries: list[tuple[bytes, str]], name: str) -> str:
    """The id of the tree made of ``entries`` (from :func:`head_facts`) minus ``name``."""
    kept = b"".join(line + b"\0" for line, entry_name in entries if entry_name != name)
    proc = subprocess.run(["git", "mktree", "-z"], input=kept, capture_output=True, check=False)
    if proc.returncode != 0:
        raise HarnessError(f"git mktree failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode("ascii").strip()


def add_note(ref: str, commit: str, message: str) -> None:
    """Write (replace) the note on ``commit`` with git itself (no pygit2)."""
    proc = subprocess.run(["git", "notes", "--ref", ref, "add", "-f", "-F", "-", commit], input=message,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise HarnessError(f"git notes add failed: {proc.stderr.strip()}")


# -- what a crash log records (harness/crashlog.py): asked of git alone, since pygit2 may be
# what failed; each answers None rather than raise, the log is written whatever git says.

def common_git_dir(near: Path | None = None) -> Path | None:
    """The common git directory of the repository at ``near`` (its own GIT_* variables ignored),
    or of the one the current directory and a hook's GIT_DIR name; None outside any."""
    try:
        proc = subprocess.run(["git", "rev-parse", "--git-common-dir"],
                              cwd=near, env=git_env() if near is not None else None,
                              capture_output=True, text=True, check=False, timeout=30)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    found = proc.stdout.strip()
    if proc.returncode != 0 or not found:
        return None
    return (near or Path.cwd()) / found  # relative to where git ran (an absolute one stays itself)


def git_version() -> str | None:
    try:
        proc = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() or None


class CommitFiles:
    """One commit's files, read with `git cat-file` (no pygit2): what a read-only command needs of an
    old commit, such as the configuration a task's base had. Files over ``cap`` bytes are refused."""

    def __init__(self, root: Path, commit: str, cap: int = 8 * 1024 * 1024) -> None:
        self.root, self.commit, self.cap = root, commit, cap
        self.label = f"commit {commit[:12]}"

    @classmethod
    def at(cls, root: Path, commit: str) -> CommitFiles | None:
        """None when ``commit`` is not a commit of the repository at ``root``."""
        if not commit or commit.startswith("-"):
            return None
        ok = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=root, env=git_env(),
                            capture_output=True, check=False).returncode == 0
        return cls(root, commit) if ok else None

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["git", *args], cwd=self.root, env=git_env(), capture_output=True, check=False)

    def read(self, rel: str) -> bytes | None:
        size = self._git("cat-file", "-s", f"{self.commit}:{rel}")
        if size.returncode != 0:
            return None
        if int(size.stdout.strip() or 0) > self.cap:
            raise HarnessError(f"{rel} in {self.label} is larger than {self.cap} bytes: refused unread")
        blob = self._git("cat-file", "blob", f"{self.commit}:{rel}")
        return blob.stdout if blob.returncode == 0 else None

    def repository_id(self) -> str | None:
        """As :meth:`TreeSource.repository_id`: the first root commit of this commit's history (None
        in a shallow clone, whose roots are its boundary)."""
        if self._git("rev-parse", "--is-shallow-repository").stdout.strip() == b"true":
            return None
        roots = self._git("rev-list", "--max-parents=0", self.commit).stdout.split()
        return min(r.decode("ascii") for r in roots) if roots else None

    def listdir(self, rel: str) -> list[str]:
        listed = self._git("ls-tree", "--name-only", "-z", f"{self.commit}:{rel}")
        return sorted(n.decode("utf-8", "surrogateescape") for n in listed.stdout.split(b"\0") if n) \
            if listed.returncode == 0 else []
