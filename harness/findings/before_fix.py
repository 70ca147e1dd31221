"""A regression test run on the code before its fix (`harness finding regression --failing-at REV`).

A regression test is attached because it fails while the bug is there. Run in the working tree, that
means writing the test before the fix, or moving a written fix aside to record it; and once a fix is
in, a test can never be attached again (moved, renamed, rewritten). Run instead on a checkout of a
commit before the fix with the test file as it is now, the failure is shown on the code it is about,
and the working tree is never touched.
"""

from __future__ import annotations

from harness.core import findings as finding_rules
from harness.core.finding_events import REPLACE_HINT
from harness.core.records import Finding
from harness.errors import Refused
from harness.findings.reproduce import Site, run_fact, run_fact_in
from harness.store.tasks import TaskStore


def event_for(f: Finding, failing_at: str | None) -> str:
    """The event attaching a regression test to ``f`` records: the first, or one replacing it. Once a
    fix is claimed the code no longer fails, so the run must be on a commit before the fix."""
    if f["status"] not in finding_rules.REPLACEABLE:
        return "finding.regression"  # CONFIRMED, or a status replay refuses with its own hint
    if f["status"] in finding_rules.FIX_CLAIMED and failing_at is None:
        was = (f["regression_test"] or {}).get("failed_head")
        hint = REPLACE_HINT.format(id=f["id"])
        raise Refused(f"{f['id']} is {f['status']}: its code is fixed, so a new regression test can only be shown "
                      "failing on a commit before the fix (nothing run, nothing recorded)",
                      hint=hint + (f" (its first regression test failed on top of {was[:12]})" if was else "")
                      + "; a test file moved unchanged (`git mv`, not committed yet) is taken as it is")
    return "finding.regression_replaced"


def moved_unchanged(s: TaskStore, f: Finding, path: str) -> str | None:
    """The path ``f``'s regression test had, when PATH is that file moved unchanged: the old path gone from
    the working tree and PATH holding exactly the bytes HEAD has there. Such a move changes no test, so
    it needs no new failing run (the test may no longer run on the code before the fix, which has moved
    on since); it must still pass now. None when it is no such move."""
    old = (f["regression_test"] or {}).get("path")
    head = s.git.head()
    if f["status"] not in finding_rules.FIX_CLAIMED or not old or old == path or head is None:
        return None
    if (s.layout.root / old).exists():
        return None
    before = s.git.read_at(head, old)
    return old if before is not None and before == (s.layout.root / path).read_bytes() else None


def run_before_fix(s: TaskStore, f: Finding, rev: str, path: str, command: list[str] | str) -> dict:
    """``command`` run on commit ``rev``'s source with ``path`` as the working tree has it now."""
    from harness.evidence.pass_to_pass import inside, located
    from harness.gitio.worktree import ensure_recordable

    git = ensure_recordable(s.git)
    commit = _ancestor_of_head(s, rev)
    _not_before_confirmed(s, f, rev, commit)
    now = git.files_of(git.worktree_source_tree())
    overlay = git.overlay_commit(git.source_tree(commit), now, [path])
    with git.temp_worktree(overlay) as where:
        import os

        site = Site(where, inside(where, dict(os.environ)), git.source_tree(overlay), commit)
        fact = run_fact_in(s, located(command, s.layout.root, where), site, recorded=command)
    return {**fact, "failing_at": commit}


def _ancestor_of_head(s: TaskStore, rev: str) -> str:
    """``rev`` as a commit id: one in HEAD's history, so the code it fails on is this code's past."""
    from harness.errors import HarnessError

    try:
        commit = s.git.resolve(rev)
    except HarnessError:
        raise Refused(f"--failing-at {rev}: no such commit in this repository",
                      hint="give a commit before the fix: `git log --oneline` lists them") from None
    head = s.git.head()
    if head is None or not s.git.is_ancestor(commit, head):
        raise Refused(f"--failing-at {rev} ({commit[:12]}) is not in HEAD's history: the test must fail on this "
                      "code's past, not on another branch", hint="give a commit HEAD descends from (`git log --oneline`)")
    return commit


def _not_before_confirmed(s: TaskStore, f: Finding, rev: str, commit: str) -> None:
    """``commit`` descends from the commit ``f``'s reproducer failed on top of: there the bug was shown.
    Before it the code may not even exist, and any test of it fails (an import error) (#27's task F-0010).
    A finding confirmed before the harness kept that commit is held to HEAD's history alone."""
    confirmed = (f["reproduction"] or {}).get("head")
    head = s.git.head()
    if not confirmed or head is None or not s.git.has_commit(confirmed):
        return
    # Amended or rebased away, the commit is no longer HEAD's: its history counts up to where it and
    # HEAD's part (#27's task F-0013).
    since = confirmed if s.git.is_ancestor(confirmed, head) else next(iter(s.git.merge_bases(confirmed, head)), None)
    if since is not None and not s.git.is_ancestor(since, commit):
        raise Refused(f"--failing-at {rev} ({commit[:12]}) is before {f['id']} was confirmed (on top of "
                      f"{confirmed[:12]}" + ("" if since == confirmed else f", whose history HEAD shares up to "
                                                                           f"{since[:12]}")
                      + "): a test can fail there for a reason that is not the bug, such as code that does not "
                      "exist yet", hint=f"give a commit from {since[:12]} on, before the fix "
                                        f"(`git log --oneline {since[:12]}^..HEAD`)")


def run_now(s: TaskStore, command: list[str] | str) -> dict:
    """The same test on the working tree, as the replacement of a fixed finding's test needs it: passing."""
    fact = run_fact(s, command)
    return {k: fact[k] for k in ("exit_code", "outcome", "tree", "output_tail")}
