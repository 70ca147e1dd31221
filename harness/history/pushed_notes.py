"""What a push's notes refs send: every note their new notes commits add, read for secrets as a committed `.harness/`
file is (F-0355). A note the remote holds was read when it was sent, so a push reads the notes it adds: a stamp's
notes commit is one note. A note added and removed again before the push is read too: its notes commit goes with the
ref, and the note's text with it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness import paths
from harness.errors import HarnessError
from harness.gitio.push_fast_path import NOTES_REFS
from harness.history.change_rules import Problem
from harness.history.incoming import ZERO, framework_push, ref_lines, shown_ref

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.history.incoming import PushedRef

MAX_SHOWN = 20  # problems named per push: past that, the first ones say what to do


def pre_push_problems(git: Git, lines: Sequence[str | bytes], remote: str | None) -> list[Problem]:
    """The refusals of the notes a pre-push hook's ref lines (or the pre-commit framework's variables) send."""
    updates = []
    for local_ref, local_sha, remote_ref, remote_sha in pushed_lines(lines):
        if not (local_ref.startswith(NOTES_REFS) or remote_ref.startswith(NOTES_REFS)) or local_sha == ZERO:
            continue
        tip = git.peel_commit(local_sha)
        if tip is None:
            continue  # a notes ref naming no commit: git shows no note from it
        old = git.peel_commit(remote_sha) if remote_sha != ZERO else None
        commits = git.rev_list([tip], [old] if old else git.remote_tips(remote))
        updates.append((remote_ref, old, commits))
    from harness.store.note_check import patterns_of

    return _problems(git, updates, patterns_of((), None if git.is_bare else git.root))


def pushed_lines(lines: Sequence[str | bytes]) -> list[list[str]]:
    """The pre-push lines, or the one ref the pre-commit framework names (its first pushed ref alone)."""
    framework = framework_push(lines)
    if framework is None or not framework.to_ref:
        return ref_lines(lines, (1, 3), "<local ref> <local sha> <remote ref> <remote sha>")
    return [[framework.local_branch, framework.to_ref, framework.remote_branch, framework.from_ref or ZERO]]


def received_problems(git: Git, pushed: Sequence[PushedRef]) -> list[tuple[str, list[Problem]]]:
    """(ref, its refusals) of each notes ref a pre-receive hook is given; the commits of each are the ones no ref of
    the repository held before the push."""
    updates = [(p.ref, None if p.old == ZERO else p.old, p.commits) for p in pushed
               if p.ref.startswith(NOTES_REFS) and p.commits]
    if not updates:
        return []
    from harness.store.note_check import patterns_of

    head = git.head()
    patterns = patterns_of([git.read_at(head, paths.CONFIG)] if head else [])  # the repository's own config
    return [(ref, found) for ref, old, commits in updates if (found := _problems(git, [(ref, old, commits)], patterns))]


def _problems(git: Git, updates: list[tuple[str, str | None, list[str]]], patterns: tuple[str, ...]) -> list[Problem]:
    """The refusals of the notes the notes commits of ``updates`` (ref, what the remote holds, its new commits) add."""
    from harness.store.note_check import NOTE_CAP, flagged, patterns_of

    problems: list[Problem] = []
    notes: list[tuple[str, str, str | None, bytes]] = []  # (ref, the object the note is on, old, its text)
    seen: set[str] = set()
    for ref, old, commits in updates:
        for commit in commits:
            for name, oid in git.notes_added(commit):
                if oid in seen:
                    continue
                seen.add(oid)
                try:
                    notes.append((ref, name, old, git.note_blob(oid, NOTE_CAP)))
                except HarnessError as exc:
                    problems.append(_refused(ref, name, old, f"cannot be read for secrets: {exc.message}"))
    if not notes:
        return problems
    configs = [git.read_at(name, paths.CONFIG) for name in dict.fromkeys(n for _, n, _, _ in notes) if git.has_commit(name)]
    red_patterns = tuple(dict.fromkeys([*patterns, *patterns_of(configs)]))
    where = {name: (ref, old) for ref, name, old, _ in notes}
    for name, line, rule in flagged([(name, raw) for _, name, _, raw in notes], red_patterns):
        ref, old = where[name]
        problems.append(_refused(ref, name, old, f"line {line} holds what looks like a secret ({rule}), which the "
                                                 "push would send to the remote"))
    return problems[:MAX_SHOWN]


def _refused(ref: str, name: str, old: str | None, message: str) -> Problem:
    reset = f"git update-ref {ref} {old}" if old else f"git update-ref -d {ref}"
    return Problem(f"{shown_ref(ref)}: the note on {name[:12]}", "secret-in-notes", message,
                   f"drop the notes this push would add (`{reset}` puts the ref back where the remote has it; a "
                   "note written by hand goes with them, and removing the note alone keeps it in the ref's history), "
                   "write the stamps again (`harness stamp REV` redacts what it writes), and push; rotate the "
                   "credential if it was ever pushed")
