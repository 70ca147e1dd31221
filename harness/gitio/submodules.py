"""Submodules in a throw-away worktree: each checked out, recursively, at the commit its parent records.

`git worktree add` leaves a submodule an empty folder, so tests kept in one would not run at all.
Each is cloned (sharing objects, nothing copied) from the copy the repository's own checkout holds:
its working folder there, or the git dir a recursive clone keeps under `.git/modules/`. No network:
a recorded commit no local copy holds is refused, naming the remedy. A commit id names its content,
so whichever local copy supplies it, what is checked out is exactly what the parent records.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.gitio.repository import Repository

GITLINK = "160000"
MAX_DEPTH = 8  # submodules of submodules…: a cycle of them stops here
# The clones are the harness's own: no hook of the user's (core.hooksPath) runs in them.
NO_HOOKS = ["-c", "core.hooksPath=/dev/null"]
REMEDY = ("check the submodules out recursively (`git submodule update --init --recursive`; in CI, before the "
          "audit: actions/checkout's `submodules: recursive`), so every commit they record is in this clone")


def check_out(repo: Repository, tree: Path, checkout: Path, depth: int = 0) -> None:
    """Check out every submodule of the worktree ``tree`` at its recorded commit, recursively;
    ``checkout`` is the same folder in the repository's own checkout (where copies are looked for)."""
    links = gitlinks(repo, tree)
    if not links:
        return
    if depth >= MAX_DEPTH:
        raise HarnessError(f"{tree}: submodules nested deeper than {MAX_DEPTH} levels", hint=REMEDY)
    names = _names(repo, tree)
    for path, sha in links:
        origin = _source(repo, checkout, path, names.get(path, path), sha)
        if origin is None:
            raise HarnessError(f"submodule {path} at {sha[:12]} (recorded by the commit) is in no local copy: "
                               f"neither {checkout / path} nor the git dir of its checkout holds that commit, so the "
                               "run in a worktree of the commit would find an empty folder where its files are",
                               hint=REMEDY)
        dest = tree / path
        repo.run([*NO_HOOKS, "clone", "--quiet", "--no-checkout", "--shared", str(origin), str(dest)])
        repo.run([*NO_HOOKS, "-C", str(dest), "checkout", "--quiet", "--detach", sha])
        nested = checkout / path
        check_out(repo, dest, nested if (nested / ".git").exists() else origin, depth + 1)


def gitlinks(repo: Repository, tree: Path) -> list[tuple[str, str]]:
    """(path, recorded commit) of each submodule entry in the index of the checkout ``tree``."""
    listing = repo.run(["-C", str(tree), "ls-files", "--stage", "-z"])
    out = []
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        mode, sha, *_ = meta.split()
        if mode == GITLINK:
            out.append((path, sha))
    return out


def _names(repo: Repository, tree: Path) -> dict[str, str]:
    """path -> name of each submodule `.gitmodules` declares (the name is its git dir's under modules/)."""
    if not (tree / ".gitmodules").is_file():
        return {}
    raw = repo.run(["-C", str(tree), "config", "--file", ".gitmodules", "-z", "--get-regexp",
                    r"^submodule\..*\.path$"], check=False)
    out = {}
    for item in filter(None, raw.split("\0")):
        key, _, value = item.partition("\n")
        out[value] = key[len("submodule."):-len(".path")]
    return out


def _source(repo: Repository, checkout: Path, path: str, name: str, sha: str) -> Path | None:
    """The first local repository holding commit ``sha``: the submodule's folder in the checkout,
    then its git dir under the checkout's `modules/` (filled by `git submodule update`)."""
    candidates = [checkout / path] if (checkout / path / ".git").exists() else []
    git_dir = repo.run(["-C", str(checkout), "rev-parse", "--absolute-git-dir"], check=False).strip() \
        if checkout.is_dir() else ""
    if git_dir:
        candidates.append(Path(git_dir) / "modules" / name)
    for candidate in candidates:
        if candidate.is_dir() and repo.run_proc(["-C", str(candidate), "cat-file", "-e",
                                                 f"{sha}^{{commit}}"]).returncode == 0:
            return candidate
    return None
