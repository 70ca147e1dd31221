"""After a commit, merge or rewrite: stamp HEAD with a git note, and judge a commit that touches
`.harness/` against its real parents now, so a refusal at push is no surprise."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harness import paths

if TYPE_CHECKING:
    from harness.history.change_rules import Problem


def stamp_head(stage: Callable[[str], None]) -> tuple[str, list[Problem]] | None:
    """(HEAD, what the push guard will refuse in it), or None when nothing was left to check (no
    `.harness/`, no commit yet, a code-only commit stamped from its parent's stamp). ``stage`` is
    told which step runs, for the message of an error that stops it."""
    from harness.store.layout import find_worktree

    stage("stamp")
    root = find_worktree()
    if not (root / paths.HARNESS).is_dir():
        return None
    from harness.history.stamp import quick_stamp_head

    if quick_stamp_head():
        return None  # a code-only commit: stamped from what the parent's stamp knew; nothing to check
    from harness.gitio.git import Git

    git = Git(root)
    git.valid_cache = root / paths.LOCAL / "valid"  # the clone's digests of valid files, kept for the next hook
    head = git.head()
    if head is None:
        return None
    from harness.history.stamp import stamp
    from harness.signatures.trust import Signers

    signers = Signers(lambda: git)  # approvals are checked against the signers git config names, if any
    stamp(git, head, signers)
    # The commit hook compares with the commit it replaces when amending.
    stage("post-commit check")
    if not git.touches(head, paths.HARNESS):
        return head, []
    from harness.history.incoming import check_commit

    return head, check_commit(git, head, signers).problems
