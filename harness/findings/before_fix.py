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

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from pathlib import Path

    from harness.gitio.git import Git


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
    """``command`` run on commit ``rev``'s source with ``path`` as the working tree has it now; when it fails
    there, the reproducer that confirmed ``f`` must fail there too, as it did then (:func:`_bug_still_there`)."""
    from harness.gitio.worktree import ensure_recordable

    git = ensure_recordable(s.git)
    commit = _ancestor_of_head(s, rev)
    _not_before_confirmed(s, f, rev, commit)
    now = git.files_of(git.worktree_source_tree())
    fact = _run_at(s, git, git.overlay_commit(git.source_tree(commit), now, [path]), commit, command)
    if fact["outcome"] == "failed":  # one that did not fail is refused by replay: no need to look for the bug
        _bug_still_there(s, git, f, rev, commit, now)
    return {**fact, "failing_at": commit}


def _run_at(s: TaskStore, git: Git, overlay: str, commit: str, command: list[str] | str) -> dict:
    """``command`` run in a throw-away checkout of ``overlay`` (``commit``'s source with files put in), the
    project's git-ignored Python environments lent to it (F-0350; a virtual environment as a shadow whose
    interpreters import the checkout's code whatever their flags, F-0376)."""
    from harness.evidence.pass_to_pass import located
    from harness.findings.checkout_env import lent

    with git.temp_worktree(overlay) as where, lent(s.layout.root, where, s.git.is_ignored) as pythons:
        run = located(command, s.layout.root, where)
        site = Site(where, _checkout_env(where, s.layout.root, run, pythons), git.source_tree(overlay), commit)
        return run_fact_in(s, run, site, recorded=command)


def _checkout_env(where: Path, root: Path, command: list[str] | str, pythons: list[Path]) -> dict[str, str]:
    """The environment of a run in the checkout ``where``: the checkout's import folders first, and each folder of
    the repository that the command's interpreter or a lent environment's imports from (an editable install's
    `.pth` naming `packages/lib/src`) replaced by the checkout's; refused (HarnessError) when one would still import
    the repository's code (F-0351). A script starts the lent interpreter itself, so each is asked, not only the
    command's first word. A shadow's interpreter imports the checkout's code already (F-0376); asked too, it must
    pass the same checks."""
    import os

    from harness.evidence.pass_to_pass import inside
    from harness.evidence.tree_imports import worktree_env

    env = inside(where, dict(os.environ))
    for program in [*([str(p)] for p in pythons), command]:
        env = worktree_env(program, where, root, env, where.parent / "hidden-imports")
    return env


def _bug_still_there(s: TaskStore, git: Git, f: Finding, rev: str, commit: str, now: dict[str, str]) -> None:
    """The reproducer that confirmed ``f`` (its recorded command), run on ``commit``'s source, fails there as it
    did when it confirmed ``f`` (the same exit code): the bug is there. A test can fail on a commit that already
    holds the fix for a reason of its own (it asserts a version bump), and would then replace the real regression
    test (read 96's F-0325). The files the command names that ``commit`` lacks (the reviewer's script, committed
    with the confirmation, after the commit it was confirmed on top of) are taken as the working tree has them;
    those ``commit`` holds are its own, so nothing of the fix is carried in through them."""
    import shlex

    from harness.core.suite import named_files

    repro = f["reproduction"] or {}
    command, shown = repro.get("argv") or repro.get("command"), repro.get("command")
    at = f"--failing-at {rev} ({commit[:12]})"
    if not command:
        raise Refused(f"{at}: {f['id']} keeps no command that confirmed it, so whether the bug is there cannot be "
                      "checked (only that the commit is in HEAD's history, after the confirmation, was); nothing "
                      "run, nothing recorded", hint=f"`harness finding list` shows {f['id']}; its ledger holds no "
                                                    "reproduction to run")
    argv = command if isinstance(command, list) else shlex.split(command)
    source = git.source_tree(commit)
    lacking = sorted(named_files([[w for a in argv for w in (a, a.partition("::")[0])]], set(now))
                     - set(git.files_of(source)))
    ran = _run_at(s, git, git.overlay_commit(source, now, lacking), commit, command)
    problem = _not_the_bug(argv, repro, ran)
    if problem:
        raise Refused(f"{at}: the reproducer that confirmed {f['id']} (`{shown}`) {problem} (nothing recorded)",
                      hint=f"name a commit where the bug is: before the fix, where `{shown}` fails as it did "
                           f"when it confirmed {f['id']} (exit {repro.get('exit_code')})")


def _not_the_bug(argv: list[str], repro: dict, ran: dict) -> str | None:
    """Why the reproducer's run ``ran`` does not show the bug that its run ``repro`` confirmed, or None."""
    from harness.core.test_verdict import no_verdict

    if ran["outcome"] == "passed":
        return "passes there, so that commit already holds the fix: name a commit before it"
    if ran["outcome"] != "failed":
        return f"did not run to an exit code there ({ran['outcome']}): whether the bug is there is not shown"
    why = no_verdict(argv, ran["exit_code"], ran.get("output_tail"))
    if why:
        return f"exited {ran['exit_code']} there: {why}; whether the bug is there is not shown"
    was = repro.get("exit_code")
    if was is not None and ran["exit_code"] != was:
        return (f"fails there with exit {ran['exit_code']}, not exit {was} as when it confirmed it: it fails for "
                "another reason (its setup, a file it needs), so whether the bug is there is not shown")
    return None


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
