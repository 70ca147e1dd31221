"""Which commits `harness audit` checks and what it reads beside them: the range (never the caller's
guess), the push as a whole, the notes the tip's config names, and whose signatures count."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from harness.errors import HarnessError

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.history.audit_range import AuditRange
    from harness.history.change_rules import Problem
    from harness.signatures.trust import Signers


class AuditTargets(NamedTuple):
    scope: AuditRange
    commits: list[str]
    history: list[Problem]   # the push as a whole (push mode only): a ref replaced rather than extended


def audit_range(git: Git, before: str | None, ref: str | None, base_rev: str | None, from_rev: str | None,
                to_rev: str, remote: str, signers: Signers) -> AuditTargets:
    """After a push (``before``), for a pull request (``base_rev``) or given outright (``from_rev``)."""
    from harness.history import audit_range as ranges
    from harness.history.stored_parents import require_stored_parents

    ranges.require_full_history(git, remote)
    require_stored_parents(git)
    if base_rev is not None:
        scope = ranges.pull_request(git, base_rev, to_rev, remote)
    elif before is not None:
        scope = ranges.after_push(git, before, to_rev, remote)
    else:
        scope = ranges.explicit(git, from_rev, to_rev)
    history: list[Problem] = []
    if before is not None:
        from harness.history.rewrite import history_problems

        # The push as a whole, beside its commits: what the ref held before (as fetched, or as CI
        # said when it is gone) against the new tip, under the server hook's rules.
        history = history_problems(git, ref, scope.before or before or "", scope.tip, signers, remote)
    return AuditTargets(scope, scope.commits(git), history)


def on_the_range_base(git: Git, scope: AuditRange, signers: Signers) -> Signers:
    """``signers`` with the range's trusted start (--from, --base, --before's commit) as the published line: an
    approval that start already holds, added again by a commit of the range, was given for an earlier change
    (read 154's F-0543). Nothing is published when the audit checks everything reachable."""
    from harness.signatures.published_line import LineTip

    start = None
    if scope.mode == "push":
        start = scope.before if scope.before and git.has_commit(scope.before) else None
    elif not scope.everything and scope.exclude:
        start = scope.exclude[0]
    line = [LineTip(start, f"{start[:12]}, the audited range's base")] if start else []
    return signers.on_line(lambda: line)


def local_notes(git: Git, tip: str) -> Callable[[str], dict[str, Any] | None]:
    """The note each commit carries under the notes ref the tip's config names (None: none, or not JSON)."""
    from harness.core.limits import decode_json
    from harness.core.tree_listing import ListingRefused
    from harness.gitio.tree_source import TreeSource
    from harness.history.stamp import notes_ref
    from harness.store.settings import notes_ref_of

    try:
        ref = notes_ref(TreeSource(git, git.commit_tree(tip), "tip"))
    except ListingRefused:  # the tip's commit is refused by name (fsck-clean-tree); its notes are not read
        ref = notes_ref_of(None)

    def read(commit: str) -> dict[str, Any] | None:
        try:
            doc = decode_json(git.read_note(ref, commit) or "null")  # deep nesting too
        except ValueError:
            return None
        return doc if isinstance(doc, dict) else None

    return read


def commit_in_range(git: Git, only: str, commits: list[str], reason: str) -> str:
    """The commit --only names, refused unless it is one of the range's (a job re-running a commit
    the audit does not cover would prove nothing about the push)."""
    from harness.history.audit_range import _try_resolve

    sha = _try_resolve(git, only) or ""
    if sha not in commits:
        raise HarnessError(f"--only {only}: {'not a commit here' if not sha else f'{sha[:12]} is not in the range'}"
                           f" ({reason}; {len(commits)} commit(s))",
                           hint="pass a commit of `harness audit --plan --json`'s `matrix`, with the same range options")
    return sha


def signers_for(git: Git, allowed_signers: str | None = None) -> Signers:
    """Whose signatures count while the audit (or a hook) checks ``git``'s commits: the file named on the
    command line alone (CI's own trust root, outside the repository), else the one git config names,
    else each commit's parent's allowed_signers."""
    from harness.signatures import trust

    return trust.Signers(lambda: git, trust.named_file(allowed_signers) if allowed_signers is not None else None)
