"""Where a repository adopted the harness, for a task whose recorded base holds no config.yaml.

A change that adopts the harness configures every evidence command itself ("whoever adopts it configures
every type"); any later change of a command needs a human's approval before it verifies a must requirement.
Which of the two a task is was told by its base alone: no config.yaml there meant adoption. The base is HEAD
when `harness task new` ran, which the agent chooses (an orphan branch, a `git reset --soft` to a commit from
before the adoption or to one without config.yaml): a command added after the real adoption then passed as
adopted (reads 52 and 53: F-0098, F-0104..F-0106). The history the judged commit stands on says where the
adoption was, whatever the base: the earliest commit of that whole history (every parent of every merge:
git's default history simplification would follow one side of a merge that leaves the folder as it was)
that adds `.harness/config.yaml`, when every later commit changing it descends from it (F-0109). The working
tree's HEAD is the agent's to move, so its history is read with the published line it stands for
(:func:`published_line`). Read with `git rev-list` (no pygit2: `status` asks this too).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness.errors import HarnessError
from harness.gitio.environment import HARNESS_DIR, git_env


def first_holding(root: Path, rev: str, refs: tuple[str, ...] = (), when_unborn: tuple[str, ...] = ()) -> str | None:
    """The earliest commit of ``rev``'s whole history (parents before children) that changes `.harness/config.yaml`:
    where it, absent before, first appeared (the file `harness init` writes; a `.harness` path some other tool kept
    long before is not the adoption, read 54's F-0110). None when no commit of it does (or no ``rev``: an unborn
    branch). ``refs`` (rev-list's `--remotes`) add their histories, and ``when_unborn`` too when ``rev`` is unborn:
    the working tree's HEAD is the agent's to point at a line of its own or at nothing before it gates (read 56a's
    F-0119); more histories can only add a candidate, and so a refusal, never take the real adoption away."""
    path = f":(top,literal){HARNESS_DIR}/config.yaml"
    tips = [rev, *refs]
    proc = _rev_list(root, [*tips, "--", path], "--full-history", "--topo-order", "--reverse")
    if proc.returncode != 0 and (refs or when_unborn) and not _born(root, rev):
        tips = [*refs, *when_unborn]  # an unborn HEAD: the other histories still say where the harness was adopted
        proc = _rev_list(root, [*tips, "--", path], "--full-history", "--topo-order", "--reverse")
        if proc.returncode != 0:  # not "no history, so this change adopts": those histories could not be read
            raise HarnessError(f"cannot read where the harness was adopted from {', '.join(tips)}: "
                               f"{(proc.stderr.strip().splitlines() or ['git rev-list failed'])[-1]}",
                               hint="`git fetch` (a ref may be gone), or check out a branch with history")
    if proc.returncode == 0:
        touching = proc.stdout.split()
        if len(touching) > 1 and not _all_descend(root, tips, touching):
            raise HarnessError(
                f"cannot tell where this history adopted the harness: {touching[0][:12]}, the earliest commit that "
                f"adds {HARNESS_DIR}/config.yaml, is not an ancestor of every later commit that changes it (one of "
                "them adopted it on a line of its own" + (", and was merged)" if not refs else ")"),
                hint="start the task from a commit that holds .harness/config.yaml (check it out, then `harness task "
                     "new`): the commands are then compared with that commit's; or take the second adoption out of the "
                     "history" + (" (if it is another line's, published, name your project's line: `git remote "
                                  "set-head origin <branch>`)" if refs else ""))
        return touching[0] if touching else None
    if not _born(root, rev):
        return None  # no history yet: the adoption is the change being judged
    raise HarnessError(f"cannot read the history of {rev[:12]} for where the harness was adopted: "
                       f"{(proc.stderr.strip().splitlines() or ['git rev-list failed'])[-1]}",
                       hint="a partial or damaged clone? `git fetch` the missing history")


def _git(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *argv], cwd=root, env=git_env(), capture_output=True, text=True, check=False)


def _rev_list(root: Path, args: list[str], *options: str) -> subprocess.CompletedProcess[str]:
    return _git(root, "rev-list", *options, *args)


def _born(root: Path, rev: str) -> bool:
    return _git(root, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}").returncode == 0


def _all_descend(root: Path, tips: list[str], touching: list[str]) -> bool:
    """Whether every commit of ``touching`` after the first descends from the first (read 54's F-0109): the
    listing orders parents before children, but between two lines of a merge its first parent's line comes first,
    so a side line that added config.yaml itself (and dropped it again, to be merged as the first parent) would
    sort before the real adoption. Asked of the whole ancestry path, not of a path-limited one: limited to the
    first's descendants, a merge with a line from before the adoption no longer differs from its other parent."""
    proc = _rev_list(root, [f"^{touching[0]}", *tips], "--ancestry-path")
    return proc.returncode == 0 and set(proc.stdout.split()) >= set(touching[1:])


def published_line(root: Path) -> tuple[str, ...]:
    """The remote-tracking refs that stand for HEAD's own line, those that exist: its branch's upstream, the
    project's remote's default line (`refs/remotes/NAME/HEAD`, which a clone sets or `git remote set-head` names, its
    `main` or `master`) and its branch named as HEAD's branch. When that remote has no default line, every ref of it:
    local branches and what they track are the agent's to make and delete (read 62's F-0150), so nothing short of all
    that is published says which line is the project's; a rival there refuses, with the remedy of naming the line
    (F-0151). Once a default line exists, a teammate's pushed trial of `harness init`, checked out or not, is another
    line's adoption, not a rival (F-0130, F-0140). Only remote-tracking refs count; an upstream whose ref is gone
    names nothing (F-0138, F-0139, F-0145). The project's remote is :func:`_project_remote`: another project's
    remote beside it (a vendored library, a template) is not this project's line (read 63a's F-0158)."""
    def lines(*argv: str) -> list[str]:
        return _git(root, *argv).stdout.splitlines()

    branch = lines("symbolic-ref", "-q", "HEAD")
    remote = _project_remote(root, branch[0].removeprefix("refs/heads/") if branch else None)
    where = remote or "*"
    default = lines("for-each-ref", "--format=%(refname)", f"refs/remotes/{where}/HEAD", f"refs/remotes/{where}/main",
                    f"refs/remotes/{where}/master")
    if not default:
        return (f"--remotes={remote}",) if remote else ("--remotes",)
    if not branch:  # a detached HEAD has no line of its own: for-each-ref without a pattern would list every ref
        return tuple(default)
    own = []
    for row in lines("for-each-ref", "--format=%(upstream) %(upstream:track)", *branch):
        upstream, _, track = row.partition(" ")
        if upstream.startswith("refs/remotes/") and track != "[gone]":
            own.append(upstream)
    own += lines("for-each-ref", "--format=%(refname)", f"refs/remotes/{where}/{branch[0].removeprefix('refs/heads/')}")
    return tuple(dict.fromkeys([*own, *default]))


def _project_remote(root: Path, branch: str | None) -> str | None:
    """The remote that holds this project's line: HEAD's branch's remote, else `remote.pushDefault`, else `origin`,
    else the only remote; None when none of these names one (every remote is read)."""
    rows = _git(root, "config", "--get-regexp", r"^(branch\..*\.remote|remote\.pushdefault|remote\..*\.url)$")
    config = dict(row.partition(" ")[::2] for row in rows.stdout.splitlines())
    remotes = [key[len("remote."):-len(".url")] for key in config if key.startswith("remote.") and key.endswith(".url")]
    for name in (config.get(f"branch.{branch}.remote") if branch else None, config.get("remote.pushdefault"), "origin"):
        if name in remotes:
            return name
    return remotes[0] if len(remotes) == 1 else None


def descends(root: Path, commit: str, ancestor: str) -> bool:
    """Whether ``commit`` is ``ancestor`` or one of its descendants (not when git cannot tell: a missing object)."""
    return _git(root, "merge-base", "--is-ancestor", ancestor, commit).returncode == 0


def on_published_line(root: Path, commit: str) -> bool:
    """Whether ``commit`` is in the history of the published line HEAD stands for (:func:`published_line`), or of
    HEAD when nothing is published: what a base the agent cannot have made on a line of its own is."""
    patterns = [f"refs/remotes/{ref.partition('=')[2]}" if ref.startswith("--remotes=") else
                "refs/remotes" if ref == "--remotes" else ref for ref in published_line(root)]
    if not _git(root, "for-each-ref", "--count=1", "--format=%(refname)", *patterns).stdout.strip():
        return descends(root, "HEAD", commit)
    return bool(_git(root, "for-each-ref", "--count=1", "--contains", commit, "--format=%(refname)",
                     *patterns).stdout.strip())


def is_shallow(root: Path) -> bool:
    """Whether the repository at ``root`` is a shallow clone (its history stops at a boundary)."""
    return _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
