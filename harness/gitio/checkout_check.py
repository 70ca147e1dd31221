"""Whether a worktree holds exactly its commit's tree: the object store is not trusted to.

`git worktree add` writes what the object files hold and does not check an object's content against
its name: a process that rewrote the loose object of a blob (a re-run of an earlier commit, in CI's one
job) would have a later commit's re-run run other code than the commit. So, before a re-run, its tree
is read with libgit2's strict hash verification (each tree object must hash to its id), and every file
checked out is compared with the blob the tree names: first its bytes as they are (a blob checkout wrote
byte for byte — any blob without conversion, and one committed with CRLF under a later `text=auto` —
hashes to its id), then, for a file that does not, as git would add it (`git hash-object`, through the
commit's own attributes: end-of-line conversion, filters); such a file's blob is also read, hash-checked.
A symlink's target is compared with its blob's content. Submodules are left out.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.gitio.repository import Repository

GITLINK, LINK = 0o160000, 0o120000
CHUNK = 200  # paths a `git hash-object` is given at once (an argument list stays well under the system's limit)
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
    """The first file whose bytes are neither its blob's content (as checkout writes a blob that already
    holds CRLF under `text=auto`: byte for byte) nor, through the commit's attributes, hash to its id."""
    missing = next((p for p in sorted(files) if not os.path.isfile(worktree / p)), None)
    if missing is not None:
        return f"{missing} (object {files[missing]}) is not checked out as a file"
    filtered = [p for p in sorted(files) if raw_blob_id(worktree / p, len(files[p])) != files[p]]
    hashed = _hashed(repo, worktree, filtered)
    if isinstance(hashed, str):
        return hashed
    for path, oid in zip(filtered, hashed):
        if oid != files[path]:
            return f"{path} holds object {oid[:12]}'s content, not object {files[path]}'s (its id in the commit)"
        repo.repo[files[path]].read_raw()  # its file came through a filter: the blob itself is read, hash-checked
    return None


def raw_blob_id(path: Path, width: int) -> str:
    """The id git gives ``path``'s bytes as they are (`git hash-object --no-filters`): SHA-1, or SHA-256
    for a 64-digit ``width``; "" when the file cannot be read."""
    digest = hashlib.sha256() if width == 64 else hashlib.sha1()  # git's object id, not a secret
    try:
        digest.update(b"blob %d\0" % path.stat().st_size)
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""  # unreadable here: git is asked, and says why
    return digest.hexdigest()


def _hashed(repo: Repository, worktree: Path, paths: list[str]) -> list[str] | str:
    """Each path's id as `git add` would make it (end-of-line conversion, filters), or why it could not be
    hashed. Paths are named as arguments (`--stdin-paths` strips a trailing CR and unquotes a leading `"`)."""
    out: list[str] = []
    for start in range(0, len(paths), CHUNK):
        chunk = paths[start:start + CHUNK]
        proc = repo.run_proc(["-C", str(worktree), "hash-object", "--", *chunk])
        hashed = proc.stdout.split()
        if proc.returncode != 0 or len(hashed) != len(chunk):
            return f"its files could not be hashed ({proc.stderr.strip()[:200]})"
        out.extend(hashed)
    return out
