"""Whether a worktree holds exactly its commit's tree: the object store is not trusted to.

`git worktree add` writes what the object files hold and does not check an object's content against
its name: a process that rewrote the loose object of a blob (a re-run of an earlier commit, in CI's one
job) would have a later commit's re-run run other code than the commit. So, before a re-run, its tree
is read with libgit2's strict hash verification (each tree object must hash to its id), and every file
checked out is hashed as git would add it (`git hash-object`, through the commit's own attributes:
end-of-line conversion, filters) and compared with the blob the tree names: each file is read once,
no blob is (a symlink's target is compared with its blob's content). Submodules are left out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.gitio.repository import Repository

GITLINK, LINK = 0o160000, 0o120000
REMEDY = ("a re-run rewrote the repository's object store (an earlier command of this job, most likely): re-run "
          "the audit from a fresh clone, or fan it out, one job per commit on a fresh runner (docs/ci.md)")


def verify_checkout(repo: Repository, worktree: Path) -> None:
    """HarnessError naming the commit and the first object whose checkout differs from its id."""
    from harness.gitio.lazy_pygit2 import pygit2

    pygit2.option(pygit2.GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, True)
    commit = repo.run(["-C", str(worktree), "rev-parse", "HEAD"]).strip()
    try:
        files, links = _entries(repo, commit)
        wrong = _link_mismatch(repo, worktree, links) or _file_mismatch(repo, worktree, files)
    except (pygit2.GitError, KeyError, ValueError) as exc:  # an object whose content does not hash to its id
        wrong = f"an object of its tree cannot be read as itself ({exc})"
    if wrong:
        raise HarnessError(f"the re-run tree of {commit[:12]} is not the commit: {wrong}", hint=REMEDY)


def _entries(repo: Repository, commit: str) -> tuple[dict[str, str], dict[str, str]]:
    """(path -> blob id of each file, path -> blob id of each symlink) of ``commit``'s tree."""
    files: dict[str, str] = {}
    links: dict[str, str] = {}
    stack = [("", repo.repo[commit].tree)]
    while stack:
        prefix, tree = stack.pop()
        for entry in tree:
            path = prefix + entry.name
            if entry.filemode == GITLINK:
                continue
            if entry.type_str == "tree":
                stack.append((path + "/", repo.repo[entry.id]))
            else:
                (links if entry.filemode == LINK else files)[path] = str(entry.id)
    return files, links


def _link_mismatch(repo: Repository, worktree: Path, links: dict[str, str]) -> str | None:
    for path, oid in sorted(links.items()):
        target = os.readlink(worktree / path) if os.path.islink(worktree / path) else None
        if target is None or target.encode("utf-8", "surrogateescape") != repo.repo[oid].data:
            return f"{path} is not the link object {oid} holds"
    return None


def _file_mismatch(repo: Repository, worktree: Path, files: dict[str, str]) -> str | None:
    paths = sorted(files)
    missing = next((p for p in paths if "\n" in p or not os.path.isfile(worktree / p)), None)
    if missing is not None:
        return f"{missing} (object {files[missing]}) is not checked out as a file"
    if not paths:
        return None
    proc = repo.run_proc(["-C", str(worktree), "hash-object", "--stdin-paths"], input="\n".join(paths) + "\n")
    hashed = proc.stdout.split()
    if proc.returncode != 0 or len(hashed) != len(paths):
        return f"its files could not be hashed ({proc.stderr.strip()[:200]})"
    for path, oid in zip(paths, hashed):
        if oid != files[path]:
            return f"{path} holds object {oid[:12]}'s content, not object {files[path]}'s (its id in the commit)"
    return None
