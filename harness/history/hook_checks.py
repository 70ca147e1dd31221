"""What the git hooks check: the staged `.harness/` change, a merge's incoming commits, a push's
commits and a range named by hand, each in a repository opened the way every hook opens it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness import paths
from harness.signatures.trust import Signers  # whose approvals count: git config's signers, if it names any

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.history.change_rules import Problem
    from harness.history.pushed_bases import Published
    from harness.signatures.published_line import LineTip


def hook_git(root: Path | None = None, valid_cache: bool = True) -> Git:
    """The work tree's repository, with the CLI's cache of known-valid documents (a hook re-reading
    unchanged ones does not check them against their schemas again).
    ``valid_cache=False`` (the audit): the checkout is what is judged, and its cache would vouch for itself."""
    from harness.gitio.git import Git
    from harness.store.layout import find_worktree

    root = root or find_worktree()
    git = Git(root)
    git.valid_cache = root / paths.LOCAL / "valid" if valid_cache else None  # what its tree sources read and keep
    return git


def server_git(git_dir: str | None) -> Git:
    """The repository a receive hook runs in (git sets GIT_DIR; a bare repository has no work tree)."""
    from harness.gitio.git import Git

    return Git(Path(git_dir or ".").resolve())


def staged_problems(git: Git) -> list[Problem]:
    """The index against HEAD (a merge: against every parent, as the push guard judges it later). A code-only commit
    leaves the commit check nothing to judge, asked as the hooks' fast path asks it (one predicate, so the two paths
    answer alike: read 128's F-0455); a root of it, or of HEAD, that git's fsck rejects is refused at the push."""
    from harness.gitio.fast_path import staged_nothing_to_judge
    from harness.gitio.tree_source import TreeSource, index_tree
    from harness.history.change_rules import validate_change

    if staged_nothing_to_judge(cwd=str(git.root)):
        return []
    head = git.head()
    full = index_tree(git)
    parents = ([head] if head else []) + git.merge_heads()
    olds = [TreeSource(git, git.commit_tree(p), f"parent {p[:12]}", rev="HEAD" if p == head else p) for p in parents]
    from harness.history.incoming import unreadable_trees

    unreadable = unreadable_trees(git, full, olds)
    if unreadable:
        return unreadable
    problems, _ = validate_change(olds, TreeSource(git, full, "index"), git.strip_harness(full), Signers(lambda: git))
    return problems


def merge_problems(git: Git) -> list[tuple[str, list[Problem]]]:
    """Each commit a merge in progress brings, validated against its parents: (commit, its problems)."""
    from harness.history.incoming import check_commit, merge_commits, renamed_by_merge

    found = []
    signers = Signers(lambda: git)
    for commit in merge_commits(git):  # empty unless a merge is in progress
        report = check_commit(git, commit, signers)
        if report.problems:
            found.append((commit, report.problems))
    heads, head = git.merge_heads(), git.head()
    renamed = renamed_by_merge(git, [head, *heads]) if heads and head else []
    if renamed:  # the merge itself, refused before it is made rather than at the push
        found.append((heads[0], renamed))
    return found


def pushed_commits(git: Git, lines: Sequence[bytes], remote: str | None) -> tuple[list[str], list[str]]:
    """(the commits a push brings, warnings) from the ref lines git gives a pre-push hook."""
    from harness.history.incoming import push_commits

    return push_commits(git, lines, remote)


def pushed_notes(git: Git, lines: Sequence[bytes], remote: str | None) -> list[Problem]:
    """The refusals of the notes a push's notes refs add (a note holding a secret), from the same ref lines."""
    import os

    from harness.history.pushed_notes import pre_push_problems

    return pre_push_problems(git, lines, remote or os.environ.get("PRE_COMMIT_REMOTE_NAME"))


def pushed_to(git: Git, remote: str | None, url: str | None) -> Published:
    """The remote a push goes to (the pre-commit framework's `PRE_COMMIT_REMOTE_*` when git's arguments are not
    given), listed once, when first asked, for every check of the push that reads it."""
    import os

    from harness.history.pushed_bases import Published

    env = os.environ
    return Published(git, remote or env.get("PRE_COMMIT_REMOTE_NAME"), url or env.get("PRE_COMMIT_REMOTE_URL"))


def pushed_bases(git: Git, lines: Sequence[bytes], published: Published) -> list[Problem]:
    """The refusals of the tasks a push brings to CONVERGED or DONE on a base the remote's history does not hold
    (read 127's F-0454), from the same ref lines and the remote they go to (:func:`pushed_to`)."""
    from harness.history.pushed_bases import pre_push_problems

    return pre_push_problems(git, lines, None, None, published)


def pushed_line(git: Git, published: Published, lines: Sequence[bytes]) -> list[LineTip]:
    """The published line a push's approvals are judged against: the remote's protected branches as it lists them,
    not the clone's refs the agent can delete or move (read 156's F-0551), named by the pushed commits' own gate.yaml
    (a change of it is checked in the same push), not the checked-out one's (read 158's F-0553)."""
    from harness.signatures.published_line import suite_base

    named = {suite_base(git, tip) for tip in published.pushed_tips(lines)}
    return published.line_tips(sorted(b for b in named if b))


def range_commits(git: Git, from_rev: str | None, to_rev: str) -> list[str]:
    from harness.history.incoming import range_commits as commits

    return commits(git, from_rev, to_rev)
